// The dashboard's drawing of each field type (./<type>/view.tsx): its icon and its list cell.
// The meaning of a type is ./registry.ts; the server never imports this file.
import type { FieldType } from '../lib/collections/types';
import { boolView } from './bool/view';
import { dateView } from './date/view';
import { editorView } from './editor/view';
import { emailView } from './email/view';
import { fileView } from './file/view';
import { jsonView } from './json/view';
import { numberView } from './number/view';
import { relationView } from './relation/view';
import { selectView } from './select/view';
import { textView } from './text/view';
import { urlView } from './url/view';
import type { FieldView } from './view-types';

export const FIELD_VIEWS: Readonly<Record<FieldType, FieldView>> = {
  text: textView,
  editor: editorView,
  number: numberView,
  bool: boolView,
  email: emailView,
  url: urlView,
  date: dateView,
  select: selectView,
  json: jsonView,
  file: fileView,
  relation: relationView,
};

/** The view of a field type; unknown types are drawn as plain text. */
export const fieldView = (type: string): FieldView => (Object.hasOwn(FIELD_VIEWS, type) ? FIELD_VIEWS[type as FieldType] : textView);
