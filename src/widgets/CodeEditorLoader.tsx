/**
 * The code editor of the rule and SQL widgets, loaded on demand: a plain textarea with the same
 * id stands in until ace arrives, so the field is usable (and labelled) at once.
 */
import { lazy, Suspense } from 'react';
import type { CodeEditorProps } from './ace/CodeEditor';
import { standInFocus } from './ace/stand-in-focus';

const CodeEditor = lazy(() => import('./ace/CodeEditor'));

export function preloadCodeEditor(): void {
  void import('./ace/CodeEditor');
}


export function LazyCodeEditor(props: CodeEditorProps) {
  const fallback = (
    <textarea
      id={props.id}
      className="sf-input code-editor-fallback"
      value={props.value}
      placeholder={props.placeholder}
      disabled={props.disabled}
      aria-describedby={props.describedBy}
      rows={props.mode === 'sql' ? 4 : 1}
      onChange={(e) => props.onChange(e.target.value)}
      onBlur={() => {
        standInFocus.id = null;
        props.onBlur?.();
      }}
      onFocus={() => {
        standInFocus.id = props.id;
        props.onFocus?.();
      }}
    />
  );
  return (
    <Suspense fallback={fallback}>
      <CodeEditor {...props} />
    </Suspense>
  );
}
