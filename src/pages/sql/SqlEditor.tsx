/**
 * The SQL console's editor: ace through react-ace (loaded with this module, on demand), SQL
 * highlighting, completion of tables and columns (src/lib/sql-console/completions.ts) besides
 * SQL's keywords, Ctrl+Enter (Cmd+Enter) runs. Tab leaves the editor (no keyboard trap).
 */
import { useRef } from 'react';
import AceEditor from 'react-ace';
import 'ace-builds/src-noconflict/ace';
import 'ace-builds/src-noconflict/ext-language_tools';
import 'ace-builds/src-noconflict/mode-sql';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import { useTheme } from '../../ui/theme';
import { sqlCompletions } from '../../lib/sql-console/completions';
import { t } from '../../ui/i18n';

export type SqlEditorProps = {
  id: string;
  value: string;
  onChange(value: string): void;
  onRun(): void;
  /** Tables and their columns, read when completing. */
  tables: () => ReadonlyMap<string, string[]>;
  describedBy?: string;
};

type AceApi = { require(name: string): { keyWordCompleter?: unknown } };
const ace = (globalThis as unknown as { ace: AceApi }).ace;

export default function SqlEditor({ id, value, onChange, onRun, tables, describedBy }: SqlEditorProps) {
  const theme = useTheme();
  const latest = useRef({ onRun, tables });
  latest.current = { onRun, tables };
  return (
    <AceEditor
      name={`${id}-ace`}
      mode="sql"
      theme={theme === 'dark' ? 'tomorrow_night' : 'textmate'}
      width="100%"
      value={value}
      onChange={onChange}
      minLines={6}
      maxLines={24}
      fontSize={13}
      showPrintMargin={false}
      highlightActiveLine={false}
      wrapEnabled
      enableBasicAutocompletion
      enableLiveAutocompletion
      setOptions={{ useWorker: false, tabSize: 2 }}
      editorProps={{ $blockScrolling: true }}
      className="sql-editor-ace"
      commands={[{ name: 'run', bindKey: { win: 'Ctrl-Enter', mac: 'Command-Enter' }, exec: () => latest.current.onRun() }]}
      onLoad={(editor) => {
        editor.commands.bindKey('Tab', null as never);
        editor.commands.bindKey('Shift-Tab', null as never);
        const textarea = editor.textInput.getElement() as HTMLTextAreaElement;
        textarea.id = id;
        editor.setOption('textInputAriaLabel' as never, t('sql.statement') as never);
        (editor.textInput as unknown as { setAriaLabel?: () => void }).setAriaLabel?.();
        if (describedBy) textarea.setAttribute('aria-describedby', describedBy);
        editor.renderer.setScrollMargin(8, 8, 0, 0);
        const keywords = ace.require('ace/ext/language_tools').keyWordCompleter;
        (editor as unknown as { completers: unknown[] }).completers = [
          {
            identifierRegexps: [/[\w$]/],
            getCompletions(_e: unknown, session: { getLine(row: number): string }, pos: { row: number; column: number }, _prefix: string, callback: (err: null, list: unknown[]) => void) {
              const before = session.getLine(pos.row).slice(0, pos.column);
              const list = sqlCompletions(latest.current.tables(), before).map((c, i) => ({
                caption: c.value,
                value: c.value,
                meta: c.meta === 'table' ? t('sql.completionTable') : c.tables && c.tables.length === 1 ? c.tables[0] : t('sql.completionColumn'),
                score: (c.meta === 'table' ? 2000 : 1000) - i,
              }));
              callback(null, list);
            },
          },
          ...(keywords ? [keywords] : []),
        ];
      }}
    />
  );
}
