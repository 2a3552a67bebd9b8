/**
 * The rich text editor of editor fields (loaded on demand: slate never ships in the initial bundle).
 * Toolbar for marks, headings, quotes, code, lists, links and images; paste goes through the
 * whitelist of ./html.ts (inert parsing, no style/class, nothing executes).
 */
import { useCallback, useMemo, useRef, useState, type JSX, type KeyboardEvent } from 'react';
import { createEditor, Editor, Element as SlateElement, Range, Transforms, type BaseEditor, type Descendant } from 'slate';
import { withHistory, type HistoryEditor } from 'slate-history';
import { Editable, ReactEditor, Slate, useFocused, useSelected, withReact, type RenderElementProps, type RenderLeafProps } from 'slate-react';
import { htmlToRich, richToHtml, safeUrl, type BlockType, type Marks, type RichElement, type RichText } from './html';
import { t } from '../../../ui/i18n';

declare module 'slate' {
  interface CustomTypes {
    Editor: BaseEditor & ReactEditor & HistoryEditor;
    Element: RichElement;
    Text: RichText;
  }
}

export type RichEditorProps = {
  id: string;
  value: string;
  onChange(html: string): void;
  onBlur?(): void;
  disabled?: boolean;
  describedBy?: string;
  /** The field's label: a contenteditable cannot be named by <label for>. */
  label?: string;
  /** Opens the image picker; resolves with the chosen image URL (or null). */
  pickImage?: () => Promise<string | null>;
  /** The editor field's convertUrls option: same-origin link and image URLs are stored root-relative. */
  convertUrls?: boolean;
};

const LIST_TYPES = new Set(['bulleted-list', 'numbered-list']);

function withRich(editor: Editor): Editor {
  const { isInline, isVoid, insertData } = editor;
  editor.isInline = (el) => el.type === 'link' || el.type === 'image' || isInline(el);
  editor.isVoid = (el) => el.type === 'image' || isVoid(el);
  editor.insertData = (data) => {
    const html = data.getData('text/html');
    if (html) {
      // parsed inertly and rebuilt from the whitelist; never inserted as markup
      const fragment = htmlToRich(html) as Descendant[];
      Transforms.insertFragment(editor, fragment);
      return;
    }
    insertData(data);
  };
  return editor;
}

const isMarkActive = (editor: Editor, mark: keyof Marks) => !!(Editor.marks(editor) as Marks | null)?.[mark];

function toggleMark(editor: Editor, mark: keyof Marks) {
  if (isMarkActive(editor, mark)) Editor.removeMark(editor, mark);
  else Editor.addMark(editor, mark, true);
}

function isBlockActive(editor: Editor, type: BlockType) {
  const { selection } = editor;
  if (!selection) return false;
  const [match] = Array.from(
    Editor.nodes(editor, { at: Editor.unhangRange(editor, selection), match: (n) => !Editor.isEditor(n) && SlateElement.isElement(n) && n.type === type }),
  );
  return !!match;
}

function toggleBlock(editor: Editor, type: BlockType) {
  const active = isBlockActive(editor, type);
  const isList = LIST_TYPES.has(type);
  Transforms.unwrapNodes(editor, {
    match: (n) => !Editor.isEditor(n) && SlateElement.isElement(n) && LIST_TYPES.has(n.type),
    split: true,
  });
  Transforms.setNodes(editor, { type: active ? 'paragraph' : isList ? 'list-item' : type } as never);
  if (!active && isList) Transforms.wrapNodes(editor, { type, children: [] } as RichElement);
}

function insertLink(editor: Editor, url: string) {
  const safe = safeUrl(url);
  if (!safe) return;
  const [link] = Array.from(Editor.nodes(editor, { match: (n) => SlateElement.isElement(n) && n.type === 'link' }));
  if (link) Transforms.unwrapNodes(editor, { match: (n) => SlateElement.isElement(n) && n.type === 'link' });
  const collapsed = !editor.selection || Range.isCollapsed(editor.selection);
  const el: RichElement = { type: 'link', url: safe, children: collapsed ? [{ text: safe }] : [] };
  if (collapsed) Transforms.insertNodes(editor, el);
  else {
    Transforms.wrapNodes(editor, el, { split: true });
    Transforms.collapse(editor, { edge: 'end' });
  }
}

function ImageElement({ attributes, children, element }: RenderElementProps) {
  const selected = useSelected();
  const focused = useFocused();
  const el = element as Extract<RichElement, { type: 'image' }>;
  return (
    <span {...attributes} className="rich-image">
      <span contentEditable={false}>
        <img src={el.url} alt={el.alt} className={selected && focused ? 'is-selected' : undefined} />
      </span>
      {children}
    </span>
  );
}

function renderElement(props: RenderElementProps): JSX.Element {
  const { attributes, children, element } = props;
  switch (element.type) {
    case 'heading-one':
      return <h1 {...attributes}>{children}</h1>;
    case 'heading-two':
      return <h2 {...attributes}>{children}</h2>;
    case 'heading-three':
      return <h3 {...attributes}>{children}</h3>;
    case 'blockquote':
      return <blockquote {...attributes}>{children}</blockquote>;
    case 'code-block':
      return <pre {...attributes}>{children}</pre>;
    case 'bulleted-list':
      return <ul {...attributes}>{children}</ul>;
    case 'numbered-list':
      return <ol {...attributes}>{children}</ol>;
    case 'list-item':
      return <li {...attributes}>{children}</li>;
    case 'link':
      return (
        <a {...attributes} href={element.url} title={element.url} onClick={(e) => e.preventDefault()}>
          {children}
        </a>
      );
    case 'image':
      return <ImageElement {...props} />;
    default:
      return <p {...attributes}>{children}</p>;
  }
}

function renderLeaf({ attributes, children, leaf }: RenderLeafProps): JSX.Element {
  let c = children;
  if (leaf.code) c = <code>{c}</code>;
  if (leaf.bold) c = <strong>{c}</strong>;
  if (leaf.italic) c = <em>{c}</em>;
  if (leaf.underline) c = <u>{c}</u>;
  if (leaf.strikethrough) c = <s>{c}</s>;
  return <span {...attributes}>{c}</span>;
}

/** `title` is the key of the tool's name in locales/ (read at render: the language may change). */
type Tool = { label: string; title: string; run(e: Editor): void; active?(e: Editor): boolean };

const TOOLS: Tool[] = [
  { label: 'B', title: 'recordWidget.rich.bold', run: (e) => toggleMark(e, 'bold'), active: (e) => isMarkActive(e, 'bold') },
  { label: 'I', title: 'recordWidget.rich.italic', run: (e) => toggleMark(e, 'italic'), active: (e) => isMarkActive(e, 'italic') },
  { label: 'U', title: 'recordWidget.rich.underline', run: (e) => toggleMark(e, 'underline'), active: (e) => isMarkActive(e, 'underline') },
  { label: 'S', title: 'recordWidget.rich.strikethrough', run: (e) => toggleMark(e, 'strikethrough'), active: (e) => isMarkActive(e, 'strikethrough') },
  { label: '</>', title: 'recordWidget.rich.inlineCode', run: (e) => toggleMark(e, 'code'), active: (e) => isMarkActive(e, 'code') },
  { label: 'H1', title: 'recordWidget.rich.heading1', run: (e) => toggleBlock(e, 'heading-one'), active: (e) => isBlockActive(e, 'heading-one') },
  { label: 'H2', title: 'recordWidget.rich.heading2', run: (e) => toggleBlock(e, 'heading-two'), active: (e) => isBlockActive(e, 'heading-two') },
  { label: 'H3', title: 'recordWidget.rich.heading3', run: (e) => toggleBlock(e, 'heading-three'), active: (e) => isBlockActive(e, 'heading-three') },
  { label: '❝', title: 'recordWidget.rich.quote', run: (e) => toggleBlock(e, 'blockquote'), active: (e) => isBlockActive(e, 'blockquote') },
  { label: '{ }', title: 'recordWidget.rich.codeBlock', run: (e) => toggleBlock(e, 'code-block'), active: (e) => isBlockActive(e, 'code-block') },
  { label: '•', title: 'recordWidget.rich.bulletedList', run: (e) => toggleBlock(e, 'bulleted-list'), active: (e) => isBlockActive(e, 'bulleted-list') },
  { label: '1.', title: 'recordWidget.rich.numberedList', run: (e) => toggleBlock(e, 'numbered-list'), active: (e) => isBlockActive(e, 'numbered-list') },
];

const HOTKEYS: Record<string, keyof Marks> = { b: 'bold', i: 'italic', u: 'underline' };

export default function RichEditor({ id, value, onChange, onBlur, disabled, describedBy, label, pickImage, convertUrls = false }: RichEditorProps) {
  const editor = useMemo(() => withRich(withHistory(withReact(createEditor()))), []);
  // the HTML last emitted: a different incoming value (e.g. a restored draft) reloads the document
  const emitted = useRef(value);
  const [version, setVersion] = useState(0);
  const [initial, setInitial] = useState<Descendant[]>(() => htmlToRich(value) as Descendant[]);
  const [, rerender] = useState(0);
  if (value !== emitted.current) {
    emitted.current = value;
    setInitial(htmlToRich(value) as Descendant[]);
    setVersion((v) => v + 1);
  }

  const change = useCallback(
    (nodes: Descendant[]) => {
      rerender((n) => n + 1);
      if (!editor.operations.some((op) => op.type !== 'set_selection')) return;
      const html = richToHtml(nodes as RichElement[], { convertUrls, base: window.location.href });
      if (html === emitted.current) return;
      emitted.current = html;
      onChange(html);
    },
    [editor, onChange, convertUrls],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const mark = HOTKEYS[e.key.toLowerCase()];
    if (mark) {
      e.preventDefault();
      toggleMark(editor, mark);
    }
  };

  const addLink = () => {
    const url = window.prompt(t('recordWidget.rich.linkUrl'));
    if (url) insertLink(editor, url);
  };

  const addImage = async () => {
    if (!pickImage) return;
    const at = editor.selection;
    const url = await pickImage();
    if (!url) return;
    if (at) Transforms.select(editor, at);
    Transforms.insertNodes(editor, { type: 'image', url, alt: '', children: [{ text: '' }] });
  };

  return (
    <div className={`rich-editor${disabled ? ' is-disabled' : ''}`}>
      <Slate key={version} editor={editor} initialValue={initial} onChange={change}>
        <div className="rich-toolbar" role="toolbar" aria-label={t('recordWidget.rich.formatting')}>
          {TOOLS.map((tool) => (
            <button
              key={tool.title}
              type="button"
              className={`rich-tool${tool.active?.(editor) ? ' is-active' : ''}`}
              title={t(tool.title)}
              aria-pressed={tool.active?.(editor) ?? false}
              disabled={disabled}
              onMouseDown={(e) => {
                e.preventDefault();
                tool.run(editor);
              }}
            >
              {/* named by its words, not its glyph (the glyph is decoration) */}
              <span aria-hidden="true">{tool.label}</span>
              <span className="visually-hidden">{t(tool.title)}</span>
            </button>
          ))}
          <button type="button" className="rich-tool" title={t('recordWidget.rich.link')} aria-label={t('recordWidget.rich.link')} disabled={disabled} onMouseDown={(e) => (e.preventDefault(), addLink())}>
            {t('recordWidget.rich.link')}
          </button>
          {pickImage && (
            <button type="button" className="rich-tool" title={t('recordWidget.insertImage')} aria-label={t('recordWidget.insertImage')} disabled={disabled} onMouseDown={(e) => (e.preventDefault(), void addImage())}>
              {t('recordWidget.rich.image')}
            </button>
          )}
        </div>
        <Editable
          id={id}
          className="rich-content"
          readOnly={disabled}
          renderElement={renderElement}
          renderLeaf={renderLeaf}
          onKeyDown={onKeyDown}
          onBlur={() => onBlur?.()}
          aria-describedby={describedBy}
          aria-label={label}
          aria-multiline
          role="textbox"
          spellCheck
        />
      </Slate>
    </div>
  );
}
