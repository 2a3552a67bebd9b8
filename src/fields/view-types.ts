// What the dashboard draws for a field type (./<type>/view.tsx, listed by ./views.ts): its icon
// and its value in a list cell or the preview. Drawing only: the meaning is ./types.ts.
import type { ReactNode } from 'react';
import type { CollectionModel, SchemaField } from '../lib/collections/types';
import type { RecordLike } from '../lib/records/format';

export type CellContext = {
  collection: CollectionModel;
  /** Collections by id (relation targets). */
  collectionsById: ReadonlyMap<string, CollectionModel>;
  /** Admin file token for protected files ('' until fetched). */
  fileToken: string;
  /** The API's base URL (file links and thumbs). */
  baseUrl: string;
};

export interface CellProps {
  record: RecordLike;
  value: unknown;
  /** The schema field (null for a system column drawn as this type, e.g. created as a date). */
  field: SchemaField | null;
  ctx: CellContext;
  /** A list cell (truncated) or the preview (full). */
  short: boolean;
}

export interface FieldView {
  /** The strokes of the type's 24x24 icon (a function, so nothing is built before an icon draws). */
  iconPaths(): ReactNode;
  Cell(props: CellProps): ReactNode;
}
