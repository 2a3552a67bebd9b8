// pb_data/.pb_temp_to_delete: 0.22's scratch folder inside the data dir (same file system, so
// renames never cross devices), emptied at every start.
import fsp from 'node:fs/promises';
import path from 'node:path';

export const TEMP_DIR_NAME = '.pb_temp_to_delete';

export async function tempRoot(dataDir: string): Promise<string> {
  const dir = path.join(dataDir, TEMP_DIR_NAME);
  await fsp.mkdir(dir, { recursive: true });
  return dir;
}
