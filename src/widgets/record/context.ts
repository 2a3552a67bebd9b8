/**
 * What the record widgets need beyond their value: the collection and the record as loaded (file
 * URLs, the files it had), and the files picked for upload, which live outside the form data (the
 * data hold a token per new file, so "how many files" counts existing + new − deleted, and drafts
 * stay plain JSON). The record editor panel provides it.
 */
import { createContext, useContext, type ComponentType } from 'react';
import type { RecordModel } from 'pocketbase';
import type { CollectionModel } from '../../lib/collections/types';

const UPLOAD_PREFIX = '@upload:';

export interface RecordEditorContextValue {
  collection: CollectionModel | null;
  /** The record as loaded (null for a new one). */
  record: RecordModel | null;
  /** New files by token. */
  uploads: Map<string, File>;
  /** Keeps files for upload and returns their tokens (put them in the field's value). */
  addUploads(files: File[]): string[];
  /**
   * An editor for a new record of another collection, opened from inside this one (the image
   * picker's 'New record'). The page provides it: widgets sit below the pages and cannot import them.
   */
  NestedEditor?: ComponentType<NestedRecordEditorProps>;
}

export interface NestedRecordEditorProps {
  collection: CollectionModel;
  /** The nested form's id (its fields must not clash with the editor it was opened from). */
  formId: string;
  onClose(): void;
  onSaved(record: RecordModel): void;
}

let counter = 0;

export function createUploadStore(): Pick<RecordEditorContextValue, 'uploads' | 'addUploads'> {
  const uploads = new Map<string, File>();
  return {
    uploads,
    addUploads(files) {
      return files.map((f) => {
        const token = `${UPLOAD_PREFIX}${++counter}:${f.name}`;
        uploads.set(token, f);
        return token;
      });
    },
  };
}

export const isUploadToken = (v: unknown): v is string => typeof v === 'string' && v.startsWith(UPLOAD_PREFIX);

/** The file name a token stands for. */
export const uploadName = (token: string): string => token.slice(UPLOAD_PREFIX.length).replace(/^\d+:/, '');

const fallback: RecordEditorContextValue = { collection: null, record: null, ...createUploadStore() };

export const RecordEditorContext = createContext<RecordEditorContextValue>(fallback);

export const useRecordEditor = (): RecordEditorContextValue => useContext(RecordEditorContext);
