// `new FormData()` (0.22's jsvm.FormData): a map of field names to lists of values, sent by
// `$http.send` as multipart/form-data, encoded as Go's mime/multipart writes it. A value is a
// string (anything else is cast as Go's cast.ToString casts it); entries keep their insertion
// order (Go's map order is random, so nothing can rely on another).
import crypto from 'node:crypto';

/** cast.ToString: text of strings, numbers and booleans, bytes as text, "" for anything else. */
export function castToString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  return '';
}

export class FormData {
  readonly #entries = new Map<string, unknown[]>();

  append(key: unknown, value: unknown): void {
    const k = String(key);
    this.#entries.set(k, [...(this.#entries.get(k) ?? []), value]);
  }
  set(key: unknown, value: unknown): void {
    this.#entries.set(String(key), [value]);
  }
  delete(key: unknown): void {
    this.#entries.delete(String(key));
  }
  get(key: unknown): unknown {
    return this.#entries.get(String(key))?.[0] ?? null;
  }
  getAll(key: unknown): unknown[] | null {
    const values = this.#entries.get(String(key));
    return values ? [...values] : null;
  }
  has(key: unknown): boolean {
    return (this.#entries.get(String(key))?.length ?? 0) > 0;
  }
  keys(): string[] {
    return [...this.#entries.keys()];
  }
  values(): unknown[] {
    return [...this.#entries.values()].flat();
  }
  entries(): Array<[string, unknown]> {
    return [...this.#entries].flatMap(([k, values]) => values.map((v): [string, unknown] => [k, v]));
  }

  /** The multipart body and its content type (a random boundary, as Go's writer makes one). */
  toMultipart(): { body: Buffer; contentType: string } {
    const boundary = crypto.randomBytes(30).toString('hex');
    const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    const chunks: Buffer[] = [];
    let first = true;
    for (const [key, value] of this.entries()) {
      chunks.push(Buffer.from(`${first ? '' : '\r\n'}--${boundary}\r\nContent-Disposition: form-data; name="${escape(key)}"\r\n\r\n`));
      chunks.push(Buffer.from(castToString(value)));
      first = false;
    }
    chunks.push(Buffer.from(`\r\n--${boundary}--\r\n`));
    return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
  }
}
