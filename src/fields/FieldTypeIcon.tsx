// A field type's icon (its strokes are the type's view, ./<type>/view.tsx) in the icon frame.
import { Icon } from '../ui/icons';
import type { FieldType } from '../lib/collections/types';
import { fieldView } from './views';

export function FieldTypeIcon({ type, size = 16 }: { type: FieldType | string; size?: number }) {
  return <Icon size={size}>{fieldView(type).iconPaths()}</Icon>;
}
