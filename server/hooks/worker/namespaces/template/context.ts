// html/template's contexts: where in an HTML document the output is (text, a tag, an attribute
// value, a URL, a script, a JS string, a style, a comment...), followed over the template's text
// with Go's transition rules. An action is escaped for the context it lands in (escapersFor), and
// the template's own text is cleaned as Go cleans it: comments dropped, a stray `<` in text written
// as `&lt;`. Go computes the contexts before running the template; here they are followed as the
// template runs, which gives the same output for every template Go accepts.

export type State =
  | 'stateText' | 'stateTag' | 'stateAttrName' | 'stateAfterName' | 'stateBeforeValue' | 'stateHTMLCmt' | 'stateRCDATA'
  | 'stateAttr' | 'stateURL' | 'stateSrcset' | 'stateJS' | 'stateJSDqStr' | 'stateJSSqStr' | 'stateJSTmplLit' | 'stateJSRegexp'
  | 'stateJSBlockCmt' | 'stateJSLineCmt' | 'stateJSHTMLOpenCmt' | 'stateJSHTMLCloseCmt' | 'stateCSS' | 'stateCSSDqStr'
  | 'stateCSSSqStr' | 'stateCSSDqURL' | 'stateCSSSqURL' | 'stateCSSURL' | 'stateCSSBlockCmt' | 'stateCSSLineCmt' | 'stateError';
export type Delim = 'delimNone' | 'delimDoubleQuote' | 'delimSingleQuote' | 'delimSpaceOrTagEnd';
type UrlPart = 'urlPartNone' | 'urlPartPreQuery' | 'urlPartQueryOrFrag';
export type JsCtx = 'jsCtxRegexp' | 'jsCtxDivOp';
export type Attr = 'attrNone' | 'attrScript' | 'attrScriptType' | 'attrStyle' | 'attrURL' | 'attrSrcset';
export type Element = 'elementNone' | 'elementScript' | 'elementStyle' | 'elementTextarea' | 'elementTitle';

export interface Context {
  state: State;
  delim: Delim;
  urlPart: UrlPart;
  jsCtx: JsCtx;
  /** Open `${` of JS template literals (brace depth inside each). */
  jsBraceDepth: number[];
  attr: Attr;
  element: Element;
  err?: string;
}

export const TEXT: Context = { state: 'stateText', delim: 'delimNone', urlPart: 'urlPartNone', jsCtx: 'jsCtxRegexp', jsBraceDepth: [], attr: 'attrNone', element: 'elementNone' };
export const ctx = (over: Partial<Context>): Context => ({ ...TEXT, ...over });

/** Go's context.String(), for messages. */
export const contextString = (c: Context) => `{${c.state} ${c.delim} ${c.urlPart} ${c.jsCtx} ${c.attr} ${c.element} ${c.err ?? '<nil>'}}`;

export const isComment = (s: State) => ['stateHTMLCmt', 'stateJSBlockCmt', 'stateJSLineCmt', 'stateJSHTMLOpenCmt', 'stateJSHTMLCloseCmt', 'stateCSSBlockCmt', 'stateCSSLineCmt'].includes(s);

export const ELEMENT_CONTENT: Record<Element, State> = { elementNone: 'stateText', elementScript: 'stateJS', elementStyle: 'stateCSS', elementTextarea: 'stateRCDATA', elementTitle: 'stateRCDATA' };
export const ELEMENTS: Record<string, Element> = { script: 'elementScript', style: 'elementStyle', textarea: 'elementTextarea', title: 'elementTitle' };
export const ATTR_START: Record<Attr, State> = { attrNone: 'stateAttr', attrScript: 'stateJS', attrScriptType: 'stateAttr', attrStyle: 'stateCSS', attrURL: 'stateURL', attrSrcset: 'stateSrcset' };

const URL_ATTRS = new Set(['action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction', 'href', 'icon', 'longdesc', 'manifest', 'poster', 'profile', 'src', 'usemap', 'xmlns']);
const PLAIN_ATTRS = new Set(
  ('accept alt autocomplete autofocus autoplay border checked class cols colspan contenteditable contextmenu controls coords datetime default dir dirname disabled ' +
    'draggable dropzone for formtarget headers height hidden high hreflang id ismap kind label lang list loop low max maxlength media mediagroup min multiple name ' +
    'open optimum placeholder preload pubdate radiogroup readonly required reversed rows rowspan spellcheck scope scoped seamless selected shape size sizes span ' +
    'srclang start step tabindex target title width wrap').split(' '),
);
const UNSAFE_ATTRS = new Set('accept-charset async challenge charset content crossorigin defer enctype form formenctype formmethod formnovalidate http-equiv keytype language method novalidate pattern rel sandbox type value'.split(' '));

/** html/template's attrType: what an attribute's value holds, from its (lower-case) name. */
export function attrType(attrName: string): 'plain' | 'url' | 'js' | 'css' | 'srcset' | 'html' | 'unsafe' {
  let name = attrName;
  if (name.startsWith('data-')) name = name.slice(5);
  else if (name.includes(':')) {
    if (name.slice(0, name.indexOf(':')) === 'xmlns') return 'url';
    name = name.slice(name.indexOf(':') + 1);
  }
  if (URL_ATTRS.has(name)) return 'url';
  if (PLAIN_ATTRS.has(name)) return 'plain';
  if (UNSAFE_ATTRS.has(name)) return 'unsafe';
  if (name === 'srcdoc') return 'html';
  if (name === 'srcset') return 'srcset';
  if (name === 'style') return 'css';
  if (name.startsWith('on')) return 'js';
  return name.includes('src') || name.includes('uri') || name.includes('url') ? 'url' : 'plain';
}

/** The context an action sees: Go's nudge (`<a href=` → an unquoted URL value...). */
export function nudge(c: Context): Context {
  if (c.state === 'stateTag') return { ...c, state: 'stateAttrName' };
  if (c.state === 'stateBeforeValue') return { ...c, state: ATTR_START[c.attr], delim: 'delimSpaceOrTagEnd', attr: 'attrNone' };
  if (c.state === 'stateAfterName') return { ...c, state: 'stateAttrName', attr: 'attrNone' };
  return c;
}

/** The escapers html/template puts at the end of an action in (nudged) context `c`, and the context after it. */
export function escapersFor(c: Context): [string[], Context] {
  const s: string[] = [];
  let after = c;
  switch (c.state) {
    case 'stateURL': case 'stateCSSDqStr': case 'stateCSSSqStr': case 'stateCSSDqURL': case 'stateCSSSqURL': case 'stateCSSURL':
      if (c.urlPart === 'urlPartNone') s.push('urlfilter');
      if (c.urlPart !== 'urlPartQueryOrFrag') s.push(c.state === 'stateCSSDqStr' || c.state === 'stateCSSSqStr' ? 'cssescaper' : 'urlnormalizer');
      else s.push('urlescaper');
      break;
    case 'stateJS':
      s.push('jsvalescaper');
      after = { ...c, jsCtx: 'jsCtxDivOp' };
      break;
    case 'stateJSDqStr': case 'stateJSSqStr':
      s.push('jsstrescaper');
      break;
    case 'stateJSTmplLit':
      s.push('jstmpllitescaper');
      break;
    case 'stateJSRegexp':
      s.push('jsregexpescaper');
      break;
    case 'stateCSS':
      s.push('cssvaluefilter');
      break;
    case 'stateText':
      s.push('htmlescaper');
      break;
    case 'stateRCDATA':
      s.push('rcdataescaper');
      break;
    case 'stateAttr':
      break;
    case 'stateAttrName': case 'stateTag':
      after = { ...c, state: 'stateAttrName' };
      s.push('htmlnamefilter');
      break;
    case 'stateSrcset':
      s.push('srcsetescaper');
      break;
    default:
      if (isComment(c.state)) s.push('commentescaper');
  }
  if (c.delim === 'delimSpaceOrTagEnd') s.push('nospaceescaper');
  else if (c.delim !== 'delimNone') s.push('attrescaper');
  return [s, after];
}
