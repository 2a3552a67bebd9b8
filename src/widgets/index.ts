/**
 * The widget registry: UI schemas pick a widget by name (`"ui:widget": "toggle"`). rjsf's own
 * names (TextWidget, CheckboxWidget, …) are overridden so every input has the dashboard's look;
 * the text-like ones (text, email, password, url, updown) draw through our BaseInputTemplate.
 * Adding a widget: write src/widgets/XWidget.tsx and add it here.
 */
import type { RegistryWidgetsType } from '@rjsf/utils';
import { getDefaultRegistry } from '@rjsf/core';
import { AvatarWidget } from './AvatarWidget';
import { CheckboxWidget } from './CheckboxWidget';
import { CsvWidget } from './CsvWidget';
import { SecretWidget } from './SecretWidget';
import { SelectWidget } from './SelectWidget';
import { TextareaWidget } from './TextareaWidget';
import { ToggleWidget } from './ToggleWidget';
import { RolePickerWidget } from './RolePickerWidget';
import { CollectionPickerWidget } from './CollectionPickerWidget';
import { DateTimeWidget } from './DateTimeWidget';
import { IndexColumnsWidget } from './IndexColumnsWidget';
import { MimeTypesWidget } from './MimeTypesWidget';
import { RuleWidget } from './RuleWidget';
import { SqlWidget } from './SqlWidget';
import { RadioWidget } from './RadioWidget';
import { SecretGeneratorWidget } from './SecretGeneratorWidget';
import { PasswordGeneratorWidget } from './PasswordGeneratorWidget';
import { StatusLabelWidget } from './StatusLabelWidget';
import { NoteWidget } from './NoteWidget';
import { CronPickerWidget } from './CronPickerWidget';
import { recordWidgets } from './record';

const core = getDefaultRegistry().widgets;

export const widgets: RegistryWidgetsType = {
  TextWidget: core.TextWidget,
  EmailWidget: core.EmailWidget,
  PasswordWidget: core.PasswordWidget,
  URLWidget: core.URLWidget,
  UpDownWidget: core.UpDownWidget,
  HiddenWidget: core.HiddenWidget,
  TextareaWidget,
  SelectWidget,
  CheckboxWidget,
  // Our own, by the names UI schemas use.
  toggle: ToggleWidget,
  avatar: AvatarWidget,
  secret: SecretWidget,
  csv: CsvWidget,
  // collections editor (dynamic choices read the collections store)
  collectionPicker: CollectionPickerWidget,
  // admin roles: an admin's role (the roles store)
  rolePicker: RolePickerWidget,
  datetime: DateTimeWidget,
  indexColumns: IndexColumnsWidget,
  mimeTypes: MimeTypesWidget,
  rule: RuleWidget,
  sql: SqlWidget,
  // settings screens
  RadioWidget,
  secretGenerator: SecretGeneratorWidget,
  passwordGenerator: PasswordGeneratorWidget,
  // backups: a cron expression with an on/off switch and presets
  cronPicker: CronPickerWidget,
  // a named check's status (formContext.checks), mostly as a ui:layout decoration cell
  statusLabel: StatusLabelWidget,
  // what the page has to say at that place (formContext.notes), a ui:layout decoration cell too
  note: NoteWidget,
  // record editor (src/lib/record-schema.ts names them)
  ...recordWidgets,
};

/**
 * The `ui:options` each of our widgets reads, beyond those every field has (src/engine/ui-options.ts);
 * a widget that reads a new option declares it here, and the contract tests reject any other key.
 */
export const WIDGET_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  TextareaWidget: ['rows'],
  textarea: ['rows'],
  toggle: ['badge', 'changeWarning'],
  collectionPicker: ['excludeViews', 'allOption'],
  cronPicker: ['hint', 'presets', 'toggle'],
  secretGenerator: ['length'],
  passwordGenerator: ['length', 'confirm'],
  statusLabel: ['check'],
  note: ['note'],
};
