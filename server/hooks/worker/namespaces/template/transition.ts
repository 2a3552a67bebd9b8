// html/template's text transitions (Go's transition.go): how the template's own text moves the
// context (context.ts), and that text as html/template writes it: comments dropped, a stray `<` in
// HTML text written as `&lt;`.
import { ATTR_START, attrType, ctx, ELEMENT_CONTENT, ELEMENTS, isComment, type Attr, type Context, type Delim, type Element, type JsCtx, type State } from './context';

const fail = (err: string): [Context, number] => [ctx({ state: 'stateError', err }), Infinity];
const IN_SCRIPT_LITERAL = new Set<State>(['stateJSDqStr', 'stateJSSqStr', 'stateJSTmplLit', 'stateJSRegexp']);
const IN_TAG = new Set<State>(['stateTag', 'stateAttrName', 'stateAfterName', 'stateBeforeValue', 'stateAttr']);

const SPACE = ' \t\n\f\r';
const eatWhiteSpace = (s: string, i: number) => {
  while (i < s.length && SPACE.includes(s[i])) i++;
  return i;
};
const alpha = (c: string | undefined) => !!c && /[A-Za-z]/.test(c);
const alnum = (c: string | undefined) => !!c && /[A-Za-z0-9]/.test(c);

function eatTagName(s: string, i: number): [number, Element] {
  if (!alpha(s[i])) return [i, 'elementNone'];
  let j = i + 1;
  while (j < s.length) {
    if (alnum(s[j])) j++;
    else if ((s[j] === ':' || s[j] === '-') && alnum(s[j + 1])) j += 2;
    else break;
  }
  return [j, ELEMENTS[s.slice(i, j).toLowerCase()] ?? 'elementNone'];
}

function eatAttrName(s: string, i: number): [number, string | null] {
  for (let j = i; j < s.length; j++) {
    if (' \t\n\f\r=>'.includes(s[j])) return [j, null];
    if (`'"<`.includes(s[j])) return [-1, `${JSON.stringify(s[j])} in attribute name: ${JSON.stringify(s.slice(0, 32))}`];
  }
  return [s.length, null];
}

function tText(c: Context, s: string): [Context, number] {
  let k = 0;
  for (;;) {
    let i = s.indexOf('<', k);
    if (i < 0 || i + 1 === s.length) return [c, s.length];
    if (s.startsWith('<!--', i)) return [ctx({ state: 'stateHTMLCmt' }), i + 4];
    i++;
    let end = false;
    if (s[i] === '/') {
      if (i + 1 === s.length) return [c, s.length];
      end = true;
      i++;
    }
    const [j, e] = eatTagName(s, i);
    if (j !== i) return [ctx({ state: 'stateTag', element: end ? 'elementNone' : e }), j];
    k = j;
  }
}

function tTag(c: Context, s: string): [Context, number] {
  const i = eatWhiteSpace(s, 0);
  if (i === s.length) return [c, s.length];
  if (s[i] === '>') return [ctx({ state: ELEMENT_CONTENT[c.element], element: c.element }), i + 1];
  const [j, err] = eatAttrName(s, i);
  if (err) return fail(err);
  if (i === j) return fail(`expected space, attr name, or end of tag, but got ${JSON.stringify(s.slice(i))}`);
  const name = s.slice(i, j).toLowerCase();
  let attr: Attr = 'attrNone';
  if (c.element === 'elementScript' && name === 'type') attr = 'attrScriptType';
  else {
    const t = attrType(name);
    attr = t === 'url' ? 'attrURL' : t === 'css' ? 'attrStyle' : t === 'js' ? 'attrScript' : t === 'srcset' ? 'attrSrcset' : 'attrNone';
  }
  return [ctx({ state: j === s.length ? 'stateAttrName' : 'stateAfterName', element: c.element, attr }), j];
}

function tAttrName(c: Context, s: string): [Context, number] {
  const [i, err] = eatAttrName(s, 0);
  if (err) return fail(err);
  return [i !== s.length ? { ...c, state: 'stateAfterName' } : c, i];
}

function tAfterName(c: Context, s: string): [Context, number] {
  const i = eatWhiteSpace(s, 0);
  if (i === s.length) return [c, s.length];
  if (s[i] !== '=') return [{ ...c, state: 'stateTag' }, i];
  return [{ ...c, state: 'stateBeforeValue' }, i + 1];
}

function tBeforeValue(c: Context, s: string): [Context, number] {
  let i = eatWhiteSpace(s, 0);
  if (i === s.length) return [c, s.length];
  let delim: Delim = 'delimSpaceOrTagEnd';
  if (s[i] === "'") [delim, i] = ['delimSingleQuote', i + 1];
  else if (s[i] === '"') [delim, i] = ['delimDoubleQuote', i + 1];
  return [{ ...c, state: ATTR_START[c.attr], delim }, i];
}

function tHTMLCmt(c: Context, s: string): [Context, number] {
  const i = s.indexOf('-->');
  return i >= 0 ? [ctx({}), i + 3] : [c, s.length];
}

/** Where `</tag` (case-insensitive, then a separator) starts in `s`, or -1. */
function indexTagEnd(s: string, tag: string): number {
  const re = new RegExp(`</${tag}[> \\t\\n\\f/]`, 'i');
  const m = re.exec(s);
  return m ? m.index : -1;
}

function tSpecialTagEnd(c: Context, s: string): [Context, number] {
  if (c.element !== 'elementNone') {
    // `</script` inside a JS string, regexp or comment does not end the script: it is escaped instead
    if (c.element === 'elementScript' && (IN_SCRIPT_LITERAL.has(c.state) || isComment(c.state))) return [c, s.length];
    const tag = Object.keys(ELEMENTS).find((k) => ELEMENTS[k] === c.element)!;
    const i = indexTagEnd(s, tag);
    if (i !== -1) return [ctx({}), i];
  }
  return [c, s.length];
}

function tURL(c: Context, s: string): [Context, number] {
  if (/[#?]/.test(s)) return [{ ...c, urlPart: 'urlPartQueryOrFrag' }, s.length];
  if (s.length !== eatWhiteSpace(s, 0) && c.urlPart === 'urlPartNone') return [{ ...c, urlPart: 'urlPartPreQuery' }, s.length];
  return [c, s.length];
}

const REGEXP_PRECEDERS = new Set(['break', 'case', 'continue', 'delete', 'do', 'else', 'finally', 'in', 'instanceof', 'return', 'throw', 'try', 'typeof', 'void']);

/** Whether a `/` after `s` starts a regular expression (Go's nextJSCtx heuristics). */
function nextJSCtx(s: string, preceding: JsCtx): JsCtx {
  const t = s.replace(/[\f\n\r\t\v \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$/, '');
  if (!t.length) return preceding;
  const c = t[t.length - 1];
  if (c === '+' || c === '-') {
    let start = t.length - 1;
    while (start > 0 && t[start - 1] === c) start--;
    return (t.length - start) % 2 === 1 ? 'jsCtxRegexp' : 'jsCtxDivOp';
  }
  if (c === '.') return t.length !== 1 && /[0-9]/.test(t[t.length - 2]) ? 'jsCtxDivOp' : 'jsCtxRegexp';
  if (',<>=*%&|^?!~([:;{}'.includes(c)) return 'jsCtxRegexp';
  const word = /[$0-9A-Z_a-z]*$/.exec(t)![0];
  return REGEXP_PRECEDERS.has(word) ? 'jsCtxRegexp' : 'jsCtxDivOp';
}

function tJS(c: Context, s: string): [Context, number] {
  const m = /["'`/{}<\-#]/.exec(s);
  if (!m) return [{ ...c, jsCtx: nextJSCtx(s, c.jsCtx) }, s.length];
  let i = m.index;
  const next: Context = { ...c, jsCtx: nextJSCtx(s.slice(0, i), c.jsCtx) };
  switch (s[i]) {
    case '"':
      Object.assign(next, { state: 'stateJSDqStr', jsCtx: 'jsCtxRegexp' });
      break;
    case "'":
      Object.assign(next, { state: 'stateJSSqStr', jsCtx: 'jsCtxRegexp' });
      break;
    case '`':
      Object.assign(next, { state: 'stateJSTmplLit', jsCtx: 'jsCtxRegexp' });
      break;
    case '/':
      if (s[i + 1] === '/') [next.state, i] = ['stateJSLineCmt', i + 1];
      else if (s[i + 1] === '*') [next.state, i] = ['stateJSBlockCmt', i + 1];
      else if (next.jsCtx === 'jsCtxRegexp') next.state = 'stateJSRegexp';
      else next.jsCtx = 'jsCtxRegexp';
      break;
    case '<':
      if (s.startsWith('<!--', i)) [next.state, i] = ['stateJSHTMLOpenCmt', i + 3];
      break;
    case '-':
      if (s.startsWith('-->', i)) [next.state, i] = ['stateJSHTMLCloseCmt', i + 2];
      break;
    case '#':
      if (s[i + 1] === '!') [next.state, i] = ['stateJSLineCmt', i + 1];
      break;
    case '{':
      if (next.jsBraceDepth.length) next.jsBraceDepth = [...next.jsBraceDepth.slice(0, -1), next.jsBraceDepth[next.jsBraceDepth.length - 1] + 1];
      break;
    case '}': {
      const depth = next.jsBraceDepth;
      if (!depth.length) break;
      const top = depth[depth.length - 1] - 1;
      if (top >= 0) next.jsBraceDepth = [...depth.slice(0, -1), top];
      else Object.assign(next, { jsBraceDepth: depth.slice(0, -1), state: 'stateJSTmplLit' });
      break;
    }
  }
  return [next, i + 1];
}

function tJSTmpl(c: Context, s: string): [Context, number] {
  for (let k = 0; ; ) {
    const m = /[`\\$]/.exec(s.slice(k));
    if (!m) return [c, s.length];
    let i = k + m.index;
    if (s[i] === '\\') {
      i++;
      if (i === s.length) return fail(`unfinished escape sequence in JS string: ${JSON.stringify(s)}`);
    } else if (s[i] === '`') return [{ ...c, state: 'stateJS' }, i + 1];
    else if (s[i + 1] === '{') return [{ ...c, state: 'stateJS', jsBraceDepth: [...c.jsBraceDepth, 0] }, i + 2];
    k = i + 1;
  }
}

function tJSDelimited(c: Context, s: string): [Context, number] {
  const specials = c.state === 'stateJSSqStr' ? "\\'" : c.state === 'stateJSRegexp' ? '\\/[]' : '\\"';
  let inCharset = false;
  for (let k = 0; ; ) {
    let i = k;
    while (i < s.length && !specials.includes(s[i])) i++;
    if (i >= s.length) break;
    if (s[i] === '\\') {
      i++;
      if (i === s.length) return fail(`unfinished escape sequence in JS string: ${JSON.stringify(s)}`);
    } else if (s[i] === '[') inCharset = true;
    else if (s[i] === ']') inCharset = false;
    else if (!inCharset) return [{ ...c, state: 'stateJS', jsCtx: 'jsCtxDivOp' }, i + 1];
    k = i + 1;
  }
  if (inCharset) return fail(`unfinished JS regexp charset: ${JSON.stringify(s)}`);
  return [c, s.length];
}

function tBlockCmt(c: Context, s: string): [Context, number] {
  const i = s.indexOf('*/');
  if (i < 0) return [c, s.length];
  return [{ ...c, state: c.state === 'stateJSBlockCmt' ? 'stateJS' : 'stateCSS' }, i + 2];
}

function tLineCmt(c: Context, s: string): [Context, number] {
  const css = c.state === 'stateCSSLineCmt';
  const m = (css ? /[\n\f\r]/ : /[\n\r\u2028\u2029]/).exec(s);
  if (!m) return [c, s.length];
  return [{ ...c, state: css ? 'stateCSS' : 'stateJS' }, m.index];
}

function tCSS(c: Context, s: string): [Context, number] {
  for (let k = 0; ; ) {
    const m = /[("'/]/.exec(s.slice(k));
    if (!m) return [c, s.length];
    const i = k + m.index;
    if (s[i] === '(') {
      const before = s.slice(0, i).replace(/[\t\n\f\r ]+$/, '');
      if (/(^|[^A-Za-z0-9_\-\u0080-\uffff])url$/i.test(before)) {
        let j = s.length - s.slice(i + 1).replace(/^[\t\n\f\r ]+/, '').length;
        let state: State = 'stateCSSURL';
        if (s[j] === '"') [state, j] = ['stateCSSDqURL', j + 1];
        else if (s[j] === "'") [state, j] = ['stateCSSSqURL', j + 1];
        return [{ ...c, state }, j];
      }
    } else if (s[i] === '/') {
      if (s[i + 1] === '/') return [{ ...c, state: 'stateCSSLineCmt' }, i + 2];
      if (s[i + 1] === '*') return [{ ...c, state: 'stateCSSBlockCmt' }, i + 2];
    } else return [{ ...c, state: s[i] === '"' ? 'stateCSSDqStr' : 'stateCSSSqStr' }, i + 1];
    k = i + 1;
  }
}

function tCSSStr(c: Context, s: string): [Context, number] {
  const ends = c.state === 'stateCSSDqStr' || c.state === 'stateCSSDqURL' ? '\\"' : c.state === 'stateCSSURL' ? '\\\t\n\f\r )' : "\\'";
  let cur = c;
  for (let k = 0; ; ) {
    let i = k;
    while (i < s.length && !ends.includes(s[i])) i++;
    if (i >= s.length) return [tURL(cur, s.slice(k))[0], s.length];
    if (s[i] !== '\\') return [{ ...cur, state: 'stateCSS' }, i + 1];
    i++;
    if (i === s.length) return fail(`unfinished escape sequence in CSS string: ${JSON.stringify(s)}`);
    cur = tURL(cur, s.slice(0, i + 1))[0];
    k = i + 1;
  }
}

const TRANSITIONS: Record<State, (c: Context, s: string) => [Context, number]> = {
  stateText: tText, stateTag: tTag, stateAttrName: tAttrName, stateAfterName: tAfterName, stateBeforeValue: tBeforeValue,
  stateHTMLCmt: tHTMLCmt, stateRCDATA: tSpecialTagEnd, stateAttr: (c, s) => [c, s.length], stateURL: tURL, stateSrcset: tURL,
  stateJS: tJS, stateJSDqStr: tJSDelimited, stateJSSqStr: tJSDelimited, stateJSTmplLit: tJSTmpl, stateJSRegexp: tJSDelimited,
  stateJSBlockCmt: tBlockCmt, stateJSLineCmt: tLineCmt, stateJSHTMLOpenCmt: tLineCmt, stateJSHTMLCloseCmt: tLineCmt,
  stateCSS: tCSS, stateCSSDqStr: tCSSStr, stateCSSSqStr: tCSSStr, stateCSSDqURL: tCSSStr, stateCSSSqURL: tCSSStr, stateCSSURL: tCSSStr,
  stateCSSBlockCmt: tBlockCmt, stateCSSLineCmt: tLineCmt, stateError: (c, s) => [c, s.length],
};

const DELIM_ENDS: Record<Delim, string> = { delimNone: '', delimDoubleQuote: '"', delimSingleQuote: "'", delimSpaceOrTagEnd: ' \t\n\f\r>' };
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const unescapeHtml = (s: string) =>
  s.replace(/&(#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);?/g, (m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e] ?? m;
    const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '\ufffd';
  });
const JS_TYPES = new Set(['application/ecmascript', 'application/javascript', 'application/json', 'application/ld+json', 'application/x-ecmascript', 'application/x-javascript', 'module', 'text/ecmascript', 'text/javascript', 'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2', 'text/javascript1.3', 'text/javascript1.4', 'text/javascript1.5', 'text/jscript', 'text/livescript', 'text/x-ecmascript', 'text/x-javascript']);

function contextAfterText(c: Context, s: string): [Context, number] {
  if (c.delim === 'delimNone') {
    const [c1, i] = tSpecialTagEnd(c, s);
    if (i === 0) return [c1, 0];
    return TRANSITIONS[c.state](c, s.slice(0, i));
  }
  const ends = DELIM_ENDS[c.delim];
  let i = 0;
  while (i < s.length && !ends.includes(s[i])) i++;
  if (c.delim === 'delimSpaceOrTagEnd') {
    const bad = /["'<=`]/.exec(s.slice(0, i));
    if (bad) return fail(`${JSON.stringify(bad[0])} in unquoted attr: ${JSON.stringify(s.slice(0, i))}`);
  }
  if (i === s.length) {
    // still inside the value: its entities decoded before the value's own rules apply
    let u = unescapeHtml(s);
    let cur = c;
    while (u.length) {
      const [c1, n] = TRANSITIONS[cur.state](cur, u);
      cur = c1;
      u = u.slice(n);
    }
    return [cur, s.length];
  }
  let element = c.element;
  if (c.state === 'stateAttr' && c.element === 'elementScript' && c.attr === 'attrScriptType' && !JS_TYPES.has(s.slice(0, i).split(';')[0].toLowerCase().trim())) element = 'elementNone';
  return [ctx({ state: 'stateTag', element }), c.delim !== 'delimSpaceOrTagEnd' ? i + 1 : i];
}

const SPECIAL_SCRIPT_TAG = /<(script|\/script|!--)/i;
const SPECIAL_SCRIPT_TAGS = /<(script|\/script|!--)/gi;

/** A text node in context `c`: the text as html/template writes it, and the context after it. */
export function escapeText(c: Context, s: string): [string, Context] {
  let out = '';
  let written = 0;
  for (let i = 0; i !== s.length; ) {
    const [c1, read] = contextAfterText(c, s.slice(i));
    const i1 = Math.min(s.length, i + read);
    if (c.state === 'stateText' || c.state === 'stateRCDATA') {
      let end = i1;
      if (c1.state !== c.state) {
        const lt = s.lastIndexOf('<', end - 1);
        if (lt >= i) end = lt;
      }
      for (let j = i; j < end; j++) {
        if (s[j] === '<' && !s.slice(j, j + 9).toUpperCase().startsWith('<!DOCTYPE')) {
          out += `${s.slice(written, j)}&lt;`;
          written = j + 1;
        }
      }
    } else if (isComment(c.state) && c.delim === 'delimNone') {
      if (c.state === 'stateJSBlockCmt') out += /[\n\r\u2028\u2029]/.test(s.slice(written, i1)) ? '\n' : ' ';
      else if (c.state === 'stateCSSBlockCmt') out += ' ';
      written = i1;
    }
    if (c.state !== c1.state && isComment(c1.state) && c1.delim === 'delimNone') {
      // keep what comes before the comment's opening
      let cs = i1 - 2;
      if (c1.state === 'stateHTMLCmt' || c1.state === 'stateJSHTMLOpenCmt') cs -= 2;
      else if (c1.state === 'stateJSHTMLCloseCmt') cs -= 1;
      out += s.slice(written, cs);
      written = i1;
    }
    if (IN_SCRIPT_LITERAL.has(c.state) && SPECIAL_SCRIPT_TAG.test(s.slice(i, i1))) {
      // `<!--`, `<script`, `</script` inside a JS string, template or regexp literal: `\x3C` for `<`
      out += s.slice(written, i) + s.slice(i, i1).replace(SPECIAL_SCRIPT_TAGS, '\\x3C$1');
      written = i1;
    }
    if (c1.state === 'stateError') return [s, c1];
    c = c1;
    i = i1;
  }
  if (written !== 0 && (!isComment(c.state) || c.delim !== 'delimNone')) out += s.slice(written);
  return [written === 0 ? s : out, c];
}

/** The text of an HTML snippet, its tags dropped (typed HTML put in an attribute: Go's stripTags). */
export function stripTags(html: string): string {
  let out = '';
  let c: Context = ctx({});
  let i = 0;
  let allText = true;
  while (i !== html.length) {
    if (c.delim === 'delimNone') {
      // the content of script, style, textarea and title counts as text here
      const st: State = c.element !== 'elementNone' && !IN_TAG.has(c.state) ? 'stateRCDATA' : c.state;
      const [d, read] = TRANSITIONS[st](c, html.slice(i));
      const i1 = Math.min(html.length, i + read);
      if (c.state === 'stateText' || c.state === 'stateRCDATA') {
        let j = i1;
        if (d.state !== c.state) {
          const lt = html.lastIndexOf('<', j - 1);
          if (lt >= i) j = lt;
        }
        out += html.slice(i, j);
      } else allText = false;
      [c, i] = [d, i1];
      continue;
    }
    let i1 = i;
    while (i1 < html.length && !DELIM_ENDS[c.delim].includes(html[i1])) i1++;
    if (i1 >= html.length) break;
    if (c.delim !== 'delimSpaceOrTagEnd') i1++;
    [c, i] = [ctx({ state: 'stateTag', element: c.element }), i1];
  }
  if (allText) return html;
  if (c.state === 'stateText' || c.state === 'stateRCDATA') out += html.slice(i);
  return out;
}
