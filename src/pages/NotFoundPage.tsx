import { usePageTitle } from '../shell/page-title';
import { NOT_FOUND_TITLE } from '../shell/routes';
import { t } from '../ui/i18n';

export default function NotFoundPage() {
  usePageTitle(t(NOT_FOUND_TITLE));
  return (
    <div className="public-page">
      <div className="public-card txt-center">
        <div className="not-found-code" aria-hidden="true">
          404
        </div>
        <h1 className="public-title">{t('notFound.title')}</h1>
        <p className="txt-hint">{t('notFound.text')}</p>
        <a href="#/" className="btn btn-primary">
          {t('notFound.back')}
        </a>
      </div>
    </div>
  );
}
