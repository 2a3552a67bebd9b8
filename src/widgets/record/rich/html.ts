/**
 * Rich text ⇄ HTML for the editor field, safely (paste keeps only a whitelist of tags and
 * strips style and class; no script ever executes). Untrusted HTML is parsed with DOMParser into an
 * inert document (no scripts run there, no images load) and only read: the editor's model is built
 * from whitelisted elements and attributes, and the stored HTML is written back from that model with
 * every text and attribute escaped. Nothing here assigns HTML to a live element.
 *
 * No React; needs DOMParser (browser, or jsdom in tests).
 */

export type Marks = { bold?: true; italic?: true; underline?: true; strikethrough?: true; code?: true };
export type RichText = { text: string } & Marks;
export type BlockType = 'paragraph' | 'heading-one' | 'heading-two' | 'heading-three' | 'blockquote' | 'code-block' | 'bulleted-list' | 'numbered-list' | 'list-item';
export type RichElement =
  | { type: BlockType; children: RichNode[] }
  | { type: 'link'; url: string; children: RichText[] }
  | { type: 'image'; url: string; alt: string; children: RichText[] };
export type RichNode = RichElement | RichText;

/** Elements dropped with their content. */
const DROPPED = new Set(['script', 'style', 'template', 'iframe', 'object', 'embed', 'noscript', 'svg', 'math', 'head', 'title', 'meta', 'link', 'form', 'input', 'button', 'select', 'textarea', 'video', 'audio', 'canvas']);

const BLOCK_OF: Record<string, BlockType> = {
  p: 'paragraph',
  div: 'paragraph',
  h1: 'heading-one',
  h2: 'heading-two',
  h3: 'heading-three',
  h4: 'heading-three',
  h5: 'heading-three',
  h6: 'heading-three',
  blockquote: 'blockquote',
  pre: 'code-block',
  ul: 'bulleted-list',
  ol: 'numbered-list',
  li: 'list-item',
};
const MARK_OF: Record<string, keyof Marks> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  u: 'underline',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  code: 'code',
};

/** Only http(s), mailto and relative URLs (never javascript:, data: or vbscript:). */
export function safeUrl(raw: string | null | undefined, { image = false } = {}): string {
  const url = (raw ?? '').trim();
  if (!url) return '';
  // control characters and whitespace inside the scheme are how `java\tscript:` slips through
  const compact = Array.from(url)
    .filter((ch) => {
      const c = ch.charCodeAt(0);
      return c > 0x20 && (c < 0x7f || c > 0x9f);
    })
    .join('');
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact)?.[1]?.toLowerCase();
  if (!scheme) return /^[/?#.\w-]/.test(compact) && !compact.startsWith('//') ? url : '';
  return scheme === 'http' || scheme === 'https' || (!image && scheme === 'mailto') ? url : '';
}

const isText = (n: RichNode): n is RichText => typeof (n as RichText).text === 'string' && !('type' in n);
const isInlineEl = (n: RichNode) => !isText(n) && (n.type === 'link' || n.type === 'image');
const isInline = (n: RichNode) => isText(n) || isInlineEl(n);
const CONTAINERS = new Set<string>(['bulleted-list', 'numbered-list']);

/** Inline content only (text, links, images): nested blocks flattened, line breaks between them. */
function inlinesOf(nodes: RichNode[]): RichNode[] {
  const out: RichNode[] = [];
  for (const n of nodes) {
    if (isInline(n)) out.push(n);
    else {
      if (out.length) out.push({ text: '\n' });
      out.push(...inlinesOf((n as RichElement).children as RichNode[]));
    }
  }
  return out.length ? out : [{ text: '' }];
}

/** Block content: runs of inline nodes wrapped in paragraphs; lists hold list items only. */
function blocksOf(nodes: RichNode[]): RichElement[] {
  const out: RichElement[] = [];
  let run: RichNode[] = [];
  const flush = () => {
    if (run.some((n) => !isText(n) || n.text.trim() !== '')) out.push({ type: 'paragraph', children: inlinesOf(run) });
    run = [];
  };
  for (const n of nodes) {
    if (isInline(n)) {
      run.push(n);
      continue;
    }
    flush();
    const el = n as RichElement & { type: BlockType };
    if (CONTAINERS.has(el.type)) {
      const items = (el.children as RichNode[]).flatMap((c) =>
        !isText(c) && (c as RichElement).type === 'list-item' ? [c as RichElement] : isText(c) && !c.text.trim() ? [] : [{ type: 'list-item' as const, children: [c] }],
      );
      out.push({ type: el.type, children: items.length ? items.map((i) => ({ type: 'list-item', children: inlinesOf(i.children as RichNode[]) })) : [{ type: 'list-item', children: [{ text: '' }] }] });
    } else if (el.type === 'list-item') {
      out.push({ type: 'bulleted-list', children: [{ type: 'list-item', children: inlinesOf(el.children as RichNode[]) }] });
    } else if (el.type === 'paragraph' && (el.children as RichNode[]).some((c) => !isInline(c))) {
      out.push(...blocksOf(el.children as RichNode[]));
    } else {
      out.push({ type: el.type, children: inlinesOf(el.children as RichNode[]) });
    }
  }
  flush();
  return out;
}

function walk(node: Node, marks: Marks): RichNode[] {
  if (node.nodeType === 3) {
    const text = (node.textContent ?? '').replace(/[\r\n\t ]+/g, ' ');
    return text ? [{ text, ...marks }] : [];
  }
  if (node.nodeType !== 1) return [];
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  if (DROPPED.has(tag)) return [];
  const children = () => Array.from(el.childNodes).flatMap((c) => walk(c, marks));
  if (tag === 'br') return [{ text: '\n', ...marks }];
  if (tag === 'img') {
    const url = safeUrl(el.getAttribute('src'), { image: true });
    return url ? [{ type: 'image', url, alt: el.getAttribute('alt') ?? '', children: [{ text: '' }] }] : [];
  }
  if (tag === 'a') {
    const url = safeUrl(el.getAttribute('href'));
    const inner = Array.from(el.childNodes).flatMap((c) => walk(c, marks)).filter(isText);
    return url && inner.length ? [{ type: 'link', url, children: inner }] : inner;
  }
  if (tag === 'pre') {
    return [{ type: 'code-block', children: [{ text: (el.textContent ?? '').replace(/\r\n?/g, '\n'), ...marks }] }];
  }
  const mark = MARK_OF[tag];
  if (mark) return Array.from(el.childNodes).flatMap((c) => walk(c, { ...marks, [mark]: true }));
  const block = BLOCK_OF[tag];
  if (block) return [{ type: block, children: children() }];
  // body, span, table parts, unknown tags: unwrapped, their text kept (tables read as lines)
  const inner = children();
  return ['tr', 'table', 'tbody', 'thead', 'section', 'article', 'header', 'footer', 'main', 'aside', 'figure', 'dl', 'dt', 'dd'].includes(tag)
    ? [{ type: 'paragraph', children: inner }]
    : inner;
}

/** Parses untrusted HTML into the editor's model (whitelisted structure only). */
export function htmlToRich(html: string): RichElement[] {
  const doc = new DOMParser().parseFromString(`<!doctype html><body>${html ?? ''}`, 'text/html');
  const blocks = blocksOf(walk(doc.body, {}));
  return blocks.length ? blocks : [{ type: 'paragraph', children: [{ text: '' }] }];
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]);

function leafHtml(t: RichText, inCode: boolean): string {
  let s = escapeHtml(t.text);
  if (!inCode) s = s.replace(/\n/g, '<br>');
  if (t.code && !inCode) s = `<code>${s}</code>`;
  if (t.strikethrough) s = `<s>${s}</s>`;
  if (t.underline) s = `<u>${s}</u>`;
  if (t.italic) s = `<em>${s}</em>`;
  if (t.bold) s = `<strong>${s}</strong>`;
  return s;
}

const TAG_OF: Record<BlockType, string> = {
  paragraph: 'p',
  'heading-one': 'h1',
  'heading-two': 'h2',
  'heading-three': 'h3',
  blockquote: 'blockquote',
  'code-block': 'pre',
  'bulleted-list': 'ul',
  'numbered-list': 'ol',
  'list-item': 'li',
};

/** How links and images are written (the editor field's convertUrls option). */
export type SerializeOptions = {
  /** PocketBase's editor option (TinyMCE's convert_urls with relative_urls off): same-origin URLs lose their origin. */
  convertUrls?: boolean;
  /** The page the URLs are relative to (the dashboard's location). */
  base?: string;
};

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * A link or image URL as stored. convertUrls off (the default): as written, absolute URLs stay
 * absolute. On: an absolute http(s) URL on the base's origin becomes root-relative
 * (`https://host/api/files/a.png?thumb=1` → `/api/files/a.png?thumb=1`, as TinyMCE's convert_urls
 * with relative_urls false and remove_script_host on); other origins, schemes and already relative
 * URLs are left alone.
 */
export function convertUrl(url: string, { convertUrls = false, base }: SerializeOptions = {}): string {
  const raw = url.trim();
  if (!convertUrls || !base || !HAS_SCHEME.test(raw)) return url;
  let target: URL;
  let from: URL;
  try {
    from = new URL(base);
    target = new URL(raw);
  } catch {
    return url;
  }
  if ((target.protocol !== 'http:' && target.protocol !== 'https:') || target.origin !== from.origin) return url;
  if (target.username || target.password) return url;
  return `${target.pathname || '/'}${target.search}${target.hash}`;
}

function nodeHtml(n: RichNode, inCode = false, opts: SerializeOptions = {}): string {
  if (isText(n)) return leafHtml(n, inCode);
  if (n.type === 'link') {
    const url = convertUrl(safeUrl(n.url), opts);
    const inner = n.children.map((c) => leafHtml(c, inCode)).join('');
    return url ? `<a href="${escapeHtml(url)}">${inner}</a>` : inner;
  }
  if (n.type === 'image') {
    const url = convertUrl(safeUrl(n.url, { image: true }), opts);
    return url ? `<img src="${escapeHtml(url)}" alt="${escapeHtml(n.alt ?? '')}">` : '';
  }
  const tag = TAG_OF[n.type];
  const code = n.type === 'code-block';
  return `<${tag}>${(n.children as RichNode[]).map((c) => nodeHtml(c, code, opts)).join('')}</${tag}>`;
}

const isEmptyDoc = (nodes: readonly RichNode[]) =>
  nodes.length === 0 ||
  (nodes.length === 1 && !isText(nodes[0]) && (nodes[0] as RichElement).type === 'paragraph' && (nodes[0] as RichElement).children.every((c) => isText(c) && c.text === ''));

/** The model as HTML ('' for an empty document); links and images per `opts` (see convertUrl). */
export function richToHtml(nodes: readonly RichNode[], opts: SerializeOptions = {}): string {
  return isEmptyDoc(nodes) ? '' : nodes.map((n) => nodeHtml(n, false, opts)).join('');
}

/** Untrusted HTML → the whitelisted HTML the editor would store. */
export function sanitizeHtml(html: string): string {
  return richToHtml(htmlToRich(html));
}
