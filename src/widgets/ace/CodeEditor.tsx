/**
 * A small ace editor (loaded on demand: ace is never part of the initial bundle). Used by the rule
 * widget (PocketBase filter syntax with autocomplete) and the SQL widget (view queries).
 * Tab leaves the editor (no keyboard trap); the hidden textarea carries the field's id, so the
 * field label and the error/help ids describe it.
 */
import { useEffect, useRef } from 'react';
import 'ace-builds/src-noconflict/ace';
import 'ace-builds/src-noconflict/ext-language_tools';
import 'ace-builds/src-noconflict/mode-sql';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import { useTheme } from '../../ui/theme';
import { t } from '../../ui/i18n';
import { standInFocus } from './stand-in-focus';

// The noconflict build installs itself as window.ace (the mode and extension files register on it).
const ace = (globalThis as unknown as { ace: typeof import('ace-builds') & { define: (...args: unknown[]) => void } }).ace;

export type CodeEditorProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  onFocus?: () => void;
  mode: 'rule' | 'sql';
  placeholder?: string;
  disabled?: boolean;
  /** Autocomplete words (rule editor). Read at completion time, so it may change freely. */
  completions?: () => readonly string[];
  describedBy?: string;
  /** Accessible name (the field label), announced before ace's cursor position. */
  label?: string;
  invalid?: boolean;
  minLines?: number;
  maxLines?: number;
};

type AceEditor = ReturnType<typeof ace.edit>;

let ruleModeReady = false;
function ensureRuleMode(): void {
  if (ruleModeReady) return;
  ruleModeReady = true;
  const oop = ace.require('ace/lib/oop');
  const TextMode = ace.require('ace/mode/text').Mode;
  const TextHighlightRules = ace.require('ace/mode/text_highlight_rules').TextHighlightRules;
  function RuleHighlightRules(this: any) {
    this.$rules = {
      start: [
        { token: 'string', regex: /'(?:[^'\\]|\\.)*'?|"(?:[^"\\]|\\.)*"?/ },
        { token: 'variable.language', regex: /@(?:request|collection)(?:\.[\w:]+)*/ },
        { token: 'constant.numeric', regex: /\b\d+(?:\.\d+)?\b/ },
        { token: 'constant.language', regex: /\b(?:true|false|null)\b/ },
        { token: 'keyword.operator', regex: /\?(?:!=|>=|<=|!~|=|>|<|~)|!=|>=|<=|!~|=|>|<|~|&&|\|\|/ },
        { token: 'paren', regex: /[()]/ },
        { token: 'identifier', regex: /[\w.:]+/ },
      ],
    };
    this.normalizeRules();
  }
  oop.inherits(RuleHighlightRules, TextHighlightRules);
  function RuleMode(this: any) {
    TextMode.call(this);
    this.HighlightRules = RuleHighlightRules;
    this.$id = 'ace/mode/outpost_rule';
  }
  oop.inherits(RuleMode, TextMode);
  ace.define('ace/mode/outpost_rule', ['require', 'exports', 'module'], (_r: unknown, exports: Record<string, unknown>) => {
    exports.Mode = RuleMode;
  });
}

export default function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<AceEditor | null>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });

  useEffect(() => {
    if (!host.current) return;
    if (props.mode === 'rule') ensureRuleMode();
    const editor = ace.edit(host.current, {
      mode: props.mode === 'sql' ? 'ace/mode/sql' : 'ace/mode/outpost_rule',
      value: props.value,
      minLines: props.minLines ?? (props.mode === 'sql' ? 4 : 1),
      maxLines: props.maxLines ?? (props.mode === 'sql' ? 20 : 8),
      showGutter: props.mode === 'sql',
      showPrintMargin: false,
      highlightActiveLine: false,
      wrap: true,
      useWorker: false,
      fontSize: 13,
      tabSize: 2,
      placeholder: props.placeholder,
      enableBasicAutocompletion: true,
      enableLiveAutocompletion: props.mode === 'rule',
    } as any);
    editorRef.current = editor;
    editor.renderer.setScrollMargin(props.mode === 'rule' ? 10 : 6, props.mode === 'rule' ? 10 : 6, 0, 0);
    editor.renderer.setPadding(10);
    editor.clearSelection();
    // Tab moves focus on (the editor is one field of a form), Esc leaves it alone for overlays.
    editor.commands.bindKey('Tab', null as any);
    editor.commands.bindKey('Shift-Tab', null as any);
    const textarea = editor.textInput.getElement() as HTMLTextAreaElement;
    textarea.id = props.id;
    // ace announces '<label>, Cursor at row N'
    if (props.label) {
      editor.setOption('textInputAriaLabel' as any, props.label);
      (editor.textInput as unknown as { setAriaLabel?: () => void }).setAriaLabel?.();
    }
    if (props.describedBy) textarea.setAttribute('aria-describedby', props.describedBy);
    (editor as any).completers = [
      {
        identifierRegexps: [/[@\w.:]/],
        getCompletions(_e: unknown, _s: unknown, _p: unknown, prefix: string, callback: (err: null, list: unknown[]) => void) {
          const words = latest.current.completions?.() ?? [];
          const lower = prefix.toLowerCase();
          const list = words
            .filter((w) => w.toLowerCase().startsWith(lower) && w !== prefix)
            .slice(0, 200)
            .map((w, i) => ({ caption: w, value: w, meta: w.startsWith('@') ? t('codeEditor.completionMacro') : t('codeEditor.completionField'), score: 1000 - i }));
          callback(null, list);
        },
      },
    ];
    editor.on('change', () => {
      const v = editor.getValue();
      if (v !== latest.current.value) latest.current.onChange(v);
    });
    editor.on('blur', () => latest.current.onBlur?.());
    // the stand-in textarea had focus while ace loaded: keep typing where the user was
    if (standInFocus.id === props.id) {
      standInFocus.id = null;
      editor.focus();
      editor.navigateFileEnd();
    }
    editor.on('focus', () => latest.current.onFocus?.());
    return () => {
      editor.destroy();
      editor.container.replaceChildren();
      editorRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.mode]);

  useEffect(() => {
    const editor = editorRef.current;
    if (editor && editor.getValue() !== props.value) {
      editor.setValue(props.value ?? '', 1);
    }
  }, [props.value]);

  // ace draws its own colours: switch its theme with the dashboard's
  const theme = useTheme();
  useEffect(() => {
    editorRef.current?.setTheme(theme === 'dark' ? 'ace/theme/tomorrow_night' : 'ace/theme/textmate');
  }, [theme, props.mode]);

  useEffect(() => {
    editorRef.current?.setReadOnly(!!props.disabled);
  }, [props.disabled]);

  // ace owns the inner element's classes; React only styles the wrapper
  return (
    <div className={`code-editor code-editor--${props.mode}${props.invalid ? ' code-editor--invalid' : ''}${props.disabled ? ' code-editor--disabled' : ''}`}>
      <div ref={host} className="code-editor-host" />
    </div>
  );
}
