// Automigrate (0.22's migratecmd with TemplateLang js): every collection create, update, delete
// and import made through the API writes the JS file 0.22 writes for it into pb_migrations and
// records it as applied. Only changes made inside an API request count (the HTTP layer opens a
// sink around the collection routes): migrations and start-up work write nothing, as 0.22's
// hookless migration Dao fires no model hooks. An import writes one `collections_snapshot` file
// (0.22 would write one diff file per changed collection, which can sort in an order that no
// longer applies on a fresh pb_data).
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import path from 'node:path';
import type { AppContext } from '../context';
import { getCollections, onCollectionsChange, type CollectionChange } from '../collections/store';
import { diffTemplate, snapshotTemplate } from './templates';
import { newMigrationName } from './files';

/** The files written while one request ran (the API answer names them). */
export interface MigrationSink {
  written: string[];
}

const sinks = new AsyncLocalStorage<MigrationSink>();

/** Runs `fn` with collection changes made inside it written as migrations into `sink`. */
export function runWithMigrationSink<T>(sink: MigrationSink, fn: () => T): T {
  return sinks.run(sink, fn);
}

function fileFor(ctx: AppContext, change: CollectionChange): { suffix: string; content: string } | null {
  switch (change.action) {
    case 'import': {
      const all = [...getCollections(ctx)].sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : 0));
      return { suffix: 'collections_snapshot', content: snapshotTemplate(all) };
    }
    case 'delete':
      return { suffix: `deleted_${change.collection.name}`, content: diffTemplate(null, change.collection) as string };
    default: {
      const old = change.previous ?? null;
      const content = diffTemplate(change.collection, old);
      if (content === null) return null;
      return { suffix: old ? `updated_${old.name}` : `created_${change.collection.name}`, content };
    }
  }
}

/** Writes the migration file for `change` and records it as applied; returns its name. */
function writeMigrationFor(ctx: AppContext, dir: string, change: CollectionChange): string | null {
  const file = fileFor(ctx, change);
  if (!file) return null;
  fs.mkdirSync(dir, { recursive: true });
  const name = newMigrationName(dir, file.suffix);
  const target = path.join(dir, name);
  fs.writeFileSync(target, file.content, { flag: 'wx' });
  try {
    ctx.migrations.recordApplied(name);
  } catch (err) {
    fs.rmSync(target, { force: true });
    throw err;
  }
  return name;
}

/** Subscribes automigrate to the app's collection changes; returns the unsubscribe function. */
export function startAutomigrate(ctx: AppContext, dir: string): () => void {
  return onCollectionsChange(ctx, (change) => {
    const sink = sinks.getStore();
    if (!sink) return;
    try {
      const name = writeMigrationFor(ctx, dir, change);
      if (name) sink.written.push(name);
    } catch (err) {
      console.error(`[automigrate] failed to write the migration for a collection ${change.action}:`, err);
    }
  });
}
