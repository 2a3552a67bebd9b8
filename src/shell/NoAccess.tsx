// What a scoped admin sees in place of a screen or a collection its role does not include (issue
// 36): which area or collection it lacks, and who can change that. A quiet card, not an error: the
// server would answer 403 to every request of the screen, so the screen is not drawn at all.
import type { Area } from '../lib/roles';
import { t } from '../ui/i18n';

export type NoAccessReason =
  /** A screen of an area the role does not grant. */
  | { kind: 'area'; area: Area }
  /** A screen only full admins open (the audit trail, hooks); `screen` is its title. */
  | { kind: 'full'; screen: string }
  /** A collection the role lets it see but not read the records of. */
  | { kind: 'records'; collection: string }
  /** A collection address naming none the admin may open (it may not exist at all: the server does not say). */
  | { kind: 'collection'; collection: string };

function reasonText(reason: NoAccessReason): string {
  switch (reason.kind) {
    case 'area':
      return t('roles.noAccess.area', { area: t(`roles.area.${reason.area}`) });
    case 'full':
      return t('roles.noAccess.full', { screen: reason.screen });
    case 'records':
      return t('roles.noAccess.records', { name: reason.collection });
    case 'collection':
      return t('roles.noAccess.collection', { name: reason.collection });
  }
}

/** The explanation card; `headingLevel` 1 when it stands for the whole screen. */
export function NoAccess({ reason, headingLevel = 2 }: { reason: NoAccessReason; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <div className="empty-state placeholder-card no-access" data-no-access={reason.kind}>
      <Heading className="empty-state-title">{t('roles.noAccess.title')}</Heading>
      <p className="no-access-reason">{reasonText(reason)}</p>
      <p className="txt-hint">{t('roles.noAccess.change')}</p>
      {reason.kind !== 'records' && reason.kind !== 'collection' && (
        <a href="#/collections" className="btn btn-secondary">
          {t('roles.noAccess.back')}
        </a>
      )}
    </div>
  );
}
