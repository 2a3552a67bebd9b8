// A pb_data opened for a command that is not the server (admin, migrate), as 0.22 bootstraps its
// app before running any command: the settings must be readable with the --encryptionEnv key (a
// wrong or missing key stops here, before anything is written), then the system tables exist.
import fs from 'node:fs';
import path from 'node:path';
import { initDataLayout } from '../db/layout';
import { settingsEncryption } from '../services/settings-crypto';
import { createSettingsStore, readStoredSettings, type SettingsStore } from '../services/settings-store';
import type { AppContext } from '../context';
import { directReads, openDatabase, type DB } from '../db/database';
import { createStores } from '../stores';
import type { GlobalFlags } from './command';

export interface OpenDataDir {
  dataDir: string;
  db: DB;
  settings: SettingsStore;
  close(): void;
}

export function openDataDir(flags: GlobalFlags): OpenDataDir {
  const dataDir = path.resolve(flags.dir);
  const encryption = settingsEncryption(flags.encryptionEnv);
  fs.mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(path.join(dataDir, 'data.db'));
  try {
    readStoredSettings(db, encryption);
    initDataLayout(db);
    const settings = createSettingsStore(db, encryption);
    return { dataDir, db, settings, close: () => db.close() };
  } catch (err) {
    db.close();
    throw err;
  }
}

/** The app context of a command (no server, no pool: reads run on the command's connection). */
export function commandContext(data: OpenDataDir, options: AppContext['options']): AppContext {
  const reads = directReads(data.db);
  return {
    options,
    dataDir: data.dataDir,
    ...createStores(data.db, data.db),
    reads,
    logReads: reads,
    settings: data.settings,
    onClose: [],
    hooks: null,
  };
}
