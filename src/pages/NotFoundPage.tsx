import { usePageTitle } from '../shell/page-title';
import { NOT_FOUND_TITLE } from '../shell/routes';

export default function NotFoundPage() {
  usePageTitle(NOT_FOUND_TITLE);
  return (
    <div className="public-page">
      <div className="public-card txt-center">
        <div className="not-found-code" aria-hidden="true">
          404
        </div>
        <h1 className="public-title">Oops! This page doesn't exist.</h1>
        <p className="txt-hint">The address may be mistyped or the page may have moved.</p>
        <a href="#/" className="btn btn-primary">
          Back to dashboard
        </a>
      </div>
    </div>
  );
}
