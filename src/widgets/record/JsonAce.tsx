/**
 * The JSON field's ace editor (loaded on demand with react-ace: ace is never in the initial
 * bundle). Grows with its content up to 500 px; Tab leaves the editor.
 */
import AceEditor from 'react-ace';
import 'ace-builds/src-noconflict/ace';
import 'ace-builds/src-noconflict/mode-json';
import 'ace-builds/src-noconflict/theme-tomorrow_night';
import { useTheme } from '../../ui/theme';

export type JsonAceProps = {
  id: string;
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  onFocus?(): void;
  disabled?: boolean;
  describedBy?: string;
};

const LINE_HEIGHT = 18;
/** The JSON editor is at most 500 px tall. */
const JSON_EDITOR_MAX_HEIGHT = 500;

export default function JsonAce({ id, value, onChange, onBlur, onFocus, disabled, describedBy }: JsonAceProps) {
  const theme = useTheme();
  return (
    <AceEditor
      name={`${id}-ace`}
      mode="json"
      theme={theme === 'dark' ? 'tomorrow_night' : 'textmate'}
      width="100%"
      value={value}
      onChange={onChange}
      onBlur={() => onBlur?.()}
      onFocus={() => onFocus?.()}
      readOnly={disabled}
      minLines={3}
      maxLines={Math.floor(JSON_EDITOR_MAX_HEIGHT / LINE_HEIGHT)}
      fontSize={13}
      showPrintMargin={false}
      highlightActiveLine={false}
      wrapEnabled
      setOptions={{ useWorker: false, tabSize: 2, showFoldWidgets: true }}
      editorProps={{ $blockScrolling: true }}
      className="record-json-ace"
      onLoad={(editor) => {
        editor.commands.bindKey('Tab', null as never);
        editor.commands.bindKey('Shift-Tab', null as never);
        const textarea = editor.textInput.getElement() as HTMLTextAreaElement;
        textarea.id = id;
        if (describedBy) textarea.setAttribute('aria-describedby', describedBy);
        editor.renderer.setScrollMargin(6, 6, 0, 0);
      }}
    />
  );
}
