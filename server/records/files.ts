// Uploaded files: the stored name PocketBase 0.22 gives them (filesystem.normalizeName:
// `<snake_name>_<10 random [A-Za-z0-9]><ext>`, name lowercased and at most 100 characters,
// extension cleaned and lowercased) and the content type sniffed from the bytes (file-type, plus
// text/SVG/JSON detection for what has no magic number). Nothing of the client's name but
// [a-z0-9_] and a cleaned extension ever reaches a path.
import { randomString } from '../services/passwords';

/** Go's inflector.Snakecase (ASCII \W splits words; camelCase humps become `_`). */
export function snakecase(str: string): string {
  const words = str.split(/[^A-Za-z0-9]+|_+/);
  let out = '';
  for (const word of words) {
    if (!word) continue;
    if (out) out += '_';
    for (let i = 0; i < word.length; i++) {
      const c = word[i];
      if (i > 0 && /[A-Z]/.test(c) && !/[A-Z]/.test(word[i - 1])) out += '_';
      out += c;
    }
  }
  return out.toLowerCase();
}

/** filepath.Ext of the base name. */
function extOf(name: string): string {
  const i = name.lastIndexOf('.');
  return i < 0 ? '' : name.slice(i);
}

/** The stored name for an upload called `originalName` (`detectedExt` used when it has none). */
export function normalizeFileName(originalName: string, detectedExt = ''): string {
  // only the last path segment of what the client sent, NUL and control characters dropped
  // eslint-disable-next-line no-control-regex
  const base = originalName.replace(/[\u0000-\u001f]/g, '').split(/[/\\]/).pop() ?? '';
  const originalExt = extOf(base);
  let cleanExt = originalExt.replace(/[^\w.*\-+=#]+/g, '');
  if (cleanExt === '' || cleanExt === '.') cleanExt = detectedExt ? `.${detectedExt}` : '';
  if (cleanExt.length > 20) cleanExt = '.' + cleanExt.slice(cleanExt.length - 20);
  cleanExt = cleanExt.replace(/\.{2,}/g, '.');

  let cleanName = snakecase(base.slice(0, base.length - originalExt.length));
  if (cleanName.length < 3) cleanName += randomString(10);
  else if (cleanName.length > 100) cleanName = cleanName.slice(0, 100);
  return `${cleanName}_${randomString(10)}${cleanExt.toLowerCase()}`;
}

export interface Sniffed {
  mime: string;
  ext: string;
}

/** The real content type of `data` (never the client's claim). */
export async function sniffContentType(data: Buffer): Promise<Sniffed> {
  if (data.length === 0) return { mime: 'text/plain', ext: 'txt' };
  try {
    // loaded on first upload: file-type and its decoders must not weigh on the server's cold start
    const { fileTypeFromBuffer } = await import('file-type');
    const found = await fileTypeFromBuffer(data);
    if (found) return { mime: found.mime, ext: found.ext };
  } catch {
    // fall through to the text checks
  }
  const head = data.subarray(0, 4096).toString('utf8');
  if (isProbablyText(data)) {
    const trimmed = head.trimStart();
    if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(trimmed)) return { mime: 'image/svg+xml', ext: 'svg' };
    if (/^<\?xml/i.test(trimmed)) return { mime: 'text/xml; charset=utf-8', ext: 'xml' };
    if (/^<(!doctype html|html|head|body)[\s>]/i.test(trimmed)) return { mime: 'text/html; charset=utf-8', ext: 'html' };
    if (/^[[{]/.test(trimmed)) {
      try {
        JSON.parse(data.toString('utf8'));
        return { mime: 'application/json', ext: 'json' };
      } catch {
        // plain text
      }
    }
    return { mime: 'text/plain; charset=utf-8', ext: 'txt' };
  }
  return { mime: 'application/octet-stream', ext: '' };
}

function isProbablyText(data: Buffer): boolean {
  const sample = data.subarray(0, 8192);
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 0x09 || (b > 0x0d && b < 0x20 && b !== 0x1b)) return false;
  }
  // valid UTF-8 (allowing a cut multi-byte sequence at the end of the sample)
  const text = sample.toString('utf8');
  const replacement = (text.match(/\uFFFD/g) ?? []).length;
  return replacement <= 1;
}
