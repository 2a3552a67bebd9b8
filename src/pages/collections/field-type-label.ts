// A field type's name in the dashboard's language ('Plain text', German 'Text'); a type the
// registry does not know (a hand-edited collection) is shown as its name.
import { FIELD_TYPES } from '../../lib/collections/fields';
import { t } from '../../ui/i18n';

export const typeLabel = (type: string): string => (FIELD_TYPES.some((f) => f.type === type) ? t(`fieldType.${type}`) : type);
