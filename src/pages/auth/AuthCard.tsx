import type { ReactNode } from 'react';
import { Logo } from '../../ui/icons';
import './auth.css';

// the product's name, never translated
const PRODUCT = 'Outpost';

/** The centred narrow card every signed-out page sits in. */
export function AuthCard({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <main className="public-page auth-page">
      <div className="auth-wrap">
        <div className="auth-brand">
          <Logo size={30} />
          <span>{PRODUCT}</span>
        </div>
        <section className="public-card auth-card" aria-labelledby="auth-title">
          <h1 className="auth-title" id="auth-title">
            {title}
          </h1>
          {children}
        </section>
        {footer && <div className="auth-footer">{footer}</div>}
      </div>
    </main>
  );
}
