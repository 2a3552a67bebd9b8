import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '../../lib/dom-ids';

const RichEditor = lazy(() => import('./rich/RichEditor'));
const ImagePicker = lazy(() => import('./rich/ImagePicker'));

/** The rich editor mounts after 100 ms. */
const RICH_EDITOR_MOUNT_DELAY = 100;

/** The editor field: the slate editor (lazy), with the image picker for its image button. */
export function RecordEditorWidget({ id, label, value, disabled, readonly, onChange, onBlur, options }: WidgetProps) {
  const [ready, setReady] = useState(false);
  const [picking, setPicking] = useState(false);
  const resolver = useRef<((url: string | null) => void) | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setReady(true), RICH_EDITOR_MOUNT_DELAY);
    return () => clearTimeout(t);
  }, []);

  const pickImage = () =>
    new Promise<string | null>((resolve) => {
      resolver.current = resolve;
      setPicking(true);
    });
  const finish = (url: string | null) => {
    setPicking(false);
    resolver.current?.(url);
    resolver.current = null;
  };

  const placeholder = <div className="rich-editor rich-editor--loading" aria-busy="true" />;
  return (
    <>
      {ready ? (
        <Suspense fallback={placeholder}>
          <RichEditor
            id={id}
            value={typeof value === 'string' ? value : ''}
            disabled={disabled || readonly}
            describedBy={ariaDescribedByIds(id)}
            label={label}
            onChange={(html) => onChange(html)}
            onBlur={() => onBlur(id, value)}
            pickImage={pickImage}
            convertUrls={options?.convertUrls === true}
          />
        </Suspense>
      ) : (
        placeholder
      )}
      {picking && (
        <Suspense fallback={null}>
          <ImagePicker open={picking} onClose={() => finish(null)} onSelect={(url) => finish(url)} />
        </Suspense>
      )}
    </>
  );
}
