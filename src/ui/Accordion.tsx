import { useId, useState, type ReactNode } from 'react';
import { t } from './i18n';

export interface AccordionProps {
  title: ReactNode;
  children: ReactNode;
  /** Starts open. */
  open?: boolean;
  /** A 'Has errors' marker in the header, so closed sections still show problems. */
  hasErrors?: boolean;
  /** `link`: a quiet "Show more options" toggle instead of a bordered header. */
  variant?: 'card' | 'link';
  /** Title while open (the link variant: "Hide more options"). */
  openTitle?: ReactNode;
}

/** A collapsible section: a button header that shows or hides its content. */
export function Accordion({ title, children, open = false, hasErrors = false, variant = 'card', openTitle }: AccordionProps) {
  const [expanded, setExpanded] = useState(open);
  const id = useId();
  return (
    <div className={`accordion accordion--${variant}${expanded ? ' accordion--open' : ''}`}>
      <button
        type="button"
        className="accordion-header"
        aria-expanded={expanded}
        aria-controls={id}
        onClick={() => setExpanded((e) => !e)}
      >
        <span className="accordion-title">{expanded && openTitle ? openTitle : title}</span>
        {hasErrors && <span className="accordion-errors">{t('form.hasErrors')}</span>}
        <span className="accordion-caret" aria-hidden="true" />
      </button>
      <div className="accordion-content" id={id} hidden={!expanded}>
        {children}
      </div>
    </div>
  );
}
