// Where the project's runtime files are (schemas/, screens/, dist/): the nearest folder above this
// module holding package.json and schemas/. It works from the sources (server/…) and from the
// built bundle (dist-server/main.mjs), whatever the working directory the server is started from.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'schemas'))) return dir;
    const up = path.dirname(dir);
    if (up === dir) throw new Error('Outpost: cannot find the project folder (package.json and schemas/) above the server');
    dir = up;
  }
}

/** The project folder: schemas/, screens/ and the built dashboard (dist/) are read from here. */
export const PROJECT_ROOT = findRoot();

/**
 * The schema files the server reads (settings index and sections, OAuth2 providers): the folder
 * OUTPOST_SCHEMAS_DIR names, else the project's schemas/ (tests point it at a modified copy).
 */
export const SCHEMAS_DIR = process.env.OUTPOST_SCHEMAS_DIR
  ? path.resolve(process.env.OUTPOST_SCHEMAS_DIR)
  : path.join(PROJECT_ROOT, 'schemas');
