// @vitest-environment jsdom
// The record widgets' pure parts: the rich text paste sanitiser (inert parsing, whitelist, no
// style/class/on* attributes, no script), date joining (12:00 default), the multiple select's
// "keep the last maxSelect", file slots and accept, the record payload and drafts.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { htmlToRich, richToHtml, safeUrl, sanitizeHtml } from '../../src/widgets/record/rich/html';
import { joinDate, splitDate } from '../../src/widgets/record/DateWidget';
import { toggleMulti, RecordSelectWidget } from '../../src/widgets/record/SelectWidget';
import { acceptsFile, remainingSlots } from '../../src/widgets/record/FileWidget';
import { selectionCount } from '../../src/widgets/record/RecordsPicker';
import { buildRecordPayload, toFormData } from '../../src/pages/records/editor/payload';
import { draftOf } from '../../src/pages/records/editor/drafts';

afterEach(() => {
  cleanup();
  delete (window as unknown as { __xss?: number }).__xss;
});

describe('paste sanitiser', () => {
  it('keeps whitelisted structure and drops scripts, handlers, styles and classes', () => {
    const html = sanitizeHtml(
      '<div style="color:red" class="c"><h1 onclick="x()">Title</h1><p>Hi <b>bold</b> <i>it</i> <u>u</u> <s>s</s> <code>c</code></p>' +
        '<script>window.__xss = 1</script><style>p{}</style><iframe src="https://evil"></iframe>' +
        '<img src="https://example.com/a.png" onerror="window.__xss = 2" alt="A">' +
        '<a href="javascript:alert(1)">js</a> <a href="https://ok.example/x" target="_blank" onmouseover="x()">ok</a>' +
        '<ul><li>one</li><li><p>two</p></li></ul><ol><li>n</li></ol><blockquote>q</blockquote><pre>a &lt; b\n  c</pre>' +
        '<table><tr><td>cell</td></tr></table><font color="red">font</font></div>',
    );
    expect(html).toBe(
      '<h1>Title</h1><p>Hi <strong>bold</strong> <em>it</em> <u>u</u> <s>s</s> <code>c</code></p>' +
        '<p><img src="https://example.com/a.png" alt="A">js <a href="https://ok.example/x">ok</a></p>' +
        '<ul><li>one</li><li>two</li></ul><ol><li>n</li></ol><blockquote>q</blockquote><pre>a &lt; b\n  c</pre><p>cell</p><p>font</p>',
    );
    expect(html).not.toMatch(/script|style|class|onerror|onclick|onmouseover|javascript|iframe|target/i);
    expect((window as unknown as { __xss?: number }).__xss).toBeUndefined();
  });

  it('escapes text and attributes when writing HTML', () => {
    const out = richToHtml([{ type: 'paragraph', children: [{ text: '<img src=x onerror=alert(1)> & "q"' }] }]);
    expect(out).toBe('<p>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;</p>');
    expect(richToHtml([{ type: 'paragraph', children: [{ text: '' }] }])).toBe('');
  });

  it('only allows http(s), mailto and relative URLs', () => {
    expect(safeUrl('https://a.b/c')).toBe('https://a.b/c');
    expect(safeUrl('/api/files/x.png', { image: true })).toBe('/api/files/x.png');
    expect(safeUrl('mailto:a@b.c')).toBe('mailto:a@b.c');
    expect(safeUrl('java\tscript:alert(1)')).toBe('');
    expect(safeUrl(' JAVASCRIPT:alert(1)')).toBe('');
    expect(safeUrl('data:text/html;base64,xx', { image: true })).toBe('');
    expect(safeUrl('//evil.example/x')).toBe('');
  });

  it('round-trips its own output', () => {
    const html = '<h2>T</h2><p>a<br>b <a href="https://x.y/">l</a></p><ul><li>i</li></ul>';
    expect(richToHtml(htmlToRich(html))).toBe(html);
  });
});

describe('widget helpers', () => {
  it('date: a picked day starts at 12:00; 19 characters', () => {
    expect(joinDate('2024-05-06', '')).toBe('2024-05-06 12:00:00');
    expect(joinDate('2024-05-06', '08:35')).toBe('2024-05-06 08:35:00');
    expect(joinDate('', '08:35')).toBe('');
    expect(splitDate('2024-05-06 08:35:10')).toEqual({ date: '2024-05-06', time: '08:35:10' });
    expect(splitDate('')).toEqual({ date: '', time: '' });
  });

  it('multiple select keeps the last maxSelect values', () => {
    expect(toggleMulti(['a', 'b'], 'c', 2)).toEqual(['b', 'c']);
    expect(toggleMulti(['a', 'b'], 'a', 2)).toEqual(['b']);
  });

  it('select widget: search box above 5 options', () => {
    const props = (values: string[]): Parameters<typeof RecordSelectWidget>[0] =>
      ({
        id: 'x',
        name: 'x',
        value: [],
        options: { values, multiple: true, maxSelect: 2, searchable: values.length > 5 },
        onChange: () => {},
        onBlur: () => {},
        onFocus: () => {},
        schema: {},
        registry: {},
        label: 'x',
      }) as unknown as Parameters<typeof RecordSelectWidget>[0];
    render(<RecordSelectWidget {...props(['a', 'b', 'c', 'd', 'e', 'f'])} />);
    fireEvent.click(screen.getByRole('button', { name: /Select/ }));
    expect(screen.getByRole('searchbox', { name: 'Search options' })).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'e' } });
    expect(screen.getAllByRole('option')).toHaveLength(1);
  });

  it('file slots count existing + new − deleted; accept by mime type', () => {
    expect(remainingSlots(['a.png', '@upload:1:b.png'], 3)).toBe(1);
    expect(remainingSlots('a.png', 1)).toBe(0);
    expect(remainingSlots('', 1)).toBe(1);
    expect(acceptsFile({ type: 'image/png', name: 'a.png' }, ['image/png'])).toBe(true);
    expect(acceptsFile({ type: 'text/plain', name: 'a.txt' }, ['image/png'])).toBe(false);
    expect(acceptsFile({ type: 'image/webp', name: 'a.webp' }, ['image/*'])).toBe(true);
    expect(acceptsFile({ type: 'text/plain', name: 'a.txt' }, [])).toBe(true);
  });

  it('picker count', () => {
    expect(selectionCount(2, 5)).toBe('(2 of MAX 5)');
    expect(selectionCount(1)).toBe('(1)');
  });
});

describe('payload and drafts', () => {
  const collection = {
    name: 'posts',
    type: 'base',
    schema: [
      { name: 'n', type: 'number', required: false, options: {} },
      { name: 'd', type: 'date', required: false, options: {} },
      { name: 'j', type: 'json', required: false, options: {} },
      { name: 'docs', type: 'file', required: false, options: { maxSelect: 3 } },
    ],
  };

  it('sends undefined as null, dates as 19 characters, parsed JSON, files as multipart', () => {
    const file = new File(['x'], 'b.png', { type: 'image/png' });
    const uploads = new Map([['@upload:1:b.png', file]]);
    const built = buildRecordPayload(collection, { id: 'abcdefghijklmno', n: undefined, d: '2024-01-02 03:04:05', j: '{"a":1}', docs: ['keep.png', '@upload:1:b.png'] }, { isNew: true, original: { docs: ['keep.png', 'gone.png'] }, uploads });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.body).toEqual({ id: 'abcdefghijklmno', n: null, d: '2024-01-02 03:04:05', j: { a: 1 } });
    expect(built.files).toEqual([['docs', file]]);
    expect(built.deletions).toEqual(['docs.gone.png']);
    const fd = toFormData(built);
    expect(JSON.parse(String(fd.get('@jsonPayload')))).toEqual(built.body);
    expect(fd.get('docs.gone.png')).toBe('');
    expect(fd.get('docs')).toBeInstanceOf(File);
  });

  it('an unparsable JSON field is the field error invalid_json', () => {
    const built = buildRecordPayload(collection, { j: '{bad' }, { isNew: true, original: null, uploads: new Map() });
    expect(built.ok).toBe(false);
    if (built.ok) return;
    expect(built.errors.j.code).toBe('invalid_json');
    expect(built.errors.j.message).toMatch(/SyntaxError/);
  });

  it('drafts keep neither passwords nor files picked for upload', () => {
    expect(draftOf({ a: 1, password: 'x', passwordConfirm: 'x', changePassword: true, docs: ['k.png', '@upload:2:n.png'], one: '@upload:3:z.png' })).toEqual({
      a: 1,
      docs: ['k.png'],
      one: '',
    });
  });
});
