/**
 * The record editor's field widgets (names used by the UI schema src/lib/record-schema.ts makes).
 * The heavy parts (slate, ace, the image picker) load on demand from inside the widgets.
 */
import { RecordIdWidget } from './IdWidget';
import type { RegistryWidgetsType } from '@rjsf/utils';
import { RecordDateWidget } from './DateWidget';
import { RecordEditorWidget } from './EditorWidget';
import { EmailVisibilityWidget } from './EmailVisibilityWidget';
import { RecordFileWidget } from './FileWidget';
import { RecordJsonWidget } from './JsonWidget';
import { RecordNumberWidget } from './NumberWidget';
import { RecordRelationWidget } from './RelationWidget';
import { RecordSelectWidget } from './SelectWidget';
import { RecordTextWidget } from './TextWidget';
import './record-widgets.css';

export const recordWidgets: RegistryWidgetsType = {
  recordText: RecordTextWidget,
  recordEditor: RecordEditorWidget,
  recordNumber: RecordNumberWidget,
  recordDate: RecordDateWidget,
  recordSelect: RecordSelectWidget,
  recordJson: RecordJsonWidget,
  recordFile: RecordFileWidget,
  recordRelation: RecordRelationWidget,
  recordEmailVisibility: EmailVisibilityWidget,
  recordId: RecordIdWidget,
};
