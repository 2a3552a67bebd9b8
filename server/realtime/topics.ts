// Subscription topics as 0.22's tools/subscriptions reads them: the topic itself ('posts/*',
// 'posts/<id>', the legacy 'posts', '@oauth2', anything else is kept but never matches an event)
// plus optional per-topic request options in a `?options=<json>` query: {query, headers}, with
// every value cast to a string and header names snake_cased ("X-Token" → "x_token").

interface SubscriptionOptions {
  query: Record<string, string>;
  headers: Record<string, string>;
}

export interface ParsedTopic {
  /** The topic exactly as submitted: the event name the client listens to. */
  name: string;
  /** The topic without its query ('posts/*'). */
  base: string;
  options: SubscriptionOptions;
  /** A stable key of the options, so subscribers with equal options share one evaluation. */
  optionsKey: string;
}

/** Go's cast.ToString for JSON values: objects, arrays and null become "". */
function castToString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return '';
}

/** 0.22's inflector.Snakecase: split at non-word characters, camelCase humps become '_'. */
export function snakecase(str: string): string {
  const words = str.split(/[\W_]+/).filter((w) => w !== '');
  const out = words.map((word) => {
    let s = '';
    for (let i = 0; i < word.length; i++) {
      const c = word[i];
      const isUpper = c !== c.toLowerCase();
      const prevUpper = i > 0 && word[i - 1] !== word[i - 1].toLowerCase();
      if (isUpper && i > 0 && !prevUpper) s += '_';
      s += c;
    }
    return s;
  });
  return out.join('_').toLowerCase();
}

function stringMap(v: unknown, key: (k: string) => string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v || typeof v !== 'object' || Array.isArray(v)) return out;
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) out[key(k)] = castToString(value);
  return out;
}

function readOptions(name: string): SubscriptionOptions {
  const q = name.indexOf('?');
  if (q < 0) return { query: {}, headers: {} };
  let raw: string | null = null;
  try {
    raw = new URLSearchParams(name.slice(q + 1)).get('options');
  } catch {
    raw = null;
  }
  if (!raw) return { query: {}, headers: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    // undecodable options are ignored, as in 0.22
    return { query: {}, headers: {} };
  }
  const o = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  return { query: stringMap(o.query, (k) => k), headers: stringMap(o.headers, snakecase) };
}

const sortedEntries = (o: Record<string, string>) => Object.keys(o).sort().map((k) => [k, o[k]]);

export function parseTopic(name: string): ParsedTopic {
  const q = name.indexOf('?');
  const options = readOptions(name);
  return {
    name,
    base: q < 0 ? name : name.slice(0, q),
    options,
    optionsKey: JSON.stringify([sortedEntries(options.query), sortedEntries(options.headers)]),
  };
}
