// The form body decoders follow Go's net/url and mime/multipart (what PocketBase 0.22 reads form
// bodies with): what Go accepts off-spec is accepted, what Go refuses throws.
import { describe, expect, it } from 'vitest';
import { multipartBoundary, readMultipartValues } from '../../server/http/multipart-values';
import { FormDecodeError, parseUrlEncoded } from '../../server/http/urlencoded';

const read = (lines: string[], nl = '\r\n', boundary = 'XyZ') => readMultipartValues(Buffer.from(lines.join(nl)), boundary);
const part = (name: string, value: string, extra = '') => [`--XyZ`, `Content-Disposition: form-data; name="${name}"${extra}`, '', value];

describe('url-encoded (net/url ParseQuery)', () => {
  it('decodes pairs in order, + as space, repeated keys, empty pairs skipped, a bare key as ""', () => {
    expect(parseUrlEncoded('a=1&b=x+y%21&a=2&&c&d=%C3%A9')).toEqual([
      ['a', '1'],
      ['b', 'x y!'],
      ['a', '2'],
      ['c', ''],
      ['d', 'é'],
    ]);
    expect(parseUrlEncoded('')).toEqual([]);
  });

  it('refuses a bad escape or a semicolon', () => {
    for (const bad of ['a=%zz', 'a=%4', 'a%=1', 'a=1;b=2', 'x;=1']) expect(() => parseUrlEncoded(bad), bad).toThrow(FormDecodeError);
  });
});

describe('multipart (mime/multipart)', () => {
  it('reads text parts, skipping files and parts with no form-data name', () => {
    const values = read([
      ...part('a', '1'),
      ...part('file', 'binary', '; filename="f.txt"'),
      '--XyZ',
      'Content-Disposition: attachment; name="b"',
      '',
      'skipped',
      '--XyZ',
      'Content-Disposition: form-data',
      '',
      'no name',
      ...part('a', 'line one\r\nline two\r\n--XyZnot-a-boundary'),
      ...part('é', 'ü', '; filename=""'),
      '--XyZ--',
      '',
    ]);
    expect(values).toEqual([
      ['a', '1'],
      ['a', 'line one\r\nline two\r\n--XyZnot-a-boundary'],
      ['é', 'ü'],
    ]);
  });

  it('accepts what Go accepts: a preamble, an epilogue, LF lines, no final newline, header folding, an empty part', () => {
    expect(read(['preamble', ...part('a', '1'), '--XyZ--', 'epilogue'])).toEqual([['a', '1']]);
    expect(read([...part('a', '1'), '--XyZ--'], '\n')).toEqual([['a', '1']]);
    expect(read([...part('a', '1'), '--XyZ--'])).toEqual([['a', '1']]);
    expect(read(['--XyZ', 'Content-Disposition: form-data;', '  name="folded"', '', 'v', '--XyZ--'])).toEqual([['folded', 'v']]);
    expect(read(['--XyZ', 'Content-Disposition: form-data; name="empty"', '', '--XyZ--'])).toEqual([['empty', '']]);
    expect(read(['--XyZ--'])).toEqual([]);
  });

  it('refuses what Go refuses', () => {
    const bad: [string, string[]][] = [
      ['no boundary at all', ['just text']],
      ['no closing boundary', part('a', '1')],
      ['a malformed header', ['--XyZ', 'no colon here', '', 'v', '--XyZ--']],
      ['headers never end', ['--XyZ', 'Content-Disposition: form-data; name="a"']],
      ['text after a boundary', [...part('a', '1'), '--XyZ  junk', '--XyZ--']],
    ];
    for (const [why, lines] of bad) expect(() => read(lines), why).toThrow(FormDecodeError);
    const many = Array.from({ length: 1001 }, (_, i) => part(`p${i}`, 'v')).flat();
    expect(() => read([...many, '--XyZ--'])).toThrow(/too large/);
    expect(read([...many.slice(0, 4000), '--XyZ--'])).toHaveLength(1000);
  });

  it('finds the boundary in the Content-Type, quoted or not', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; BOUNDARY="a b:c"')).toBe('a b:c');
    for (const bad of ['multipart/form-data', 'multipart/form-data; boundary=', 'multipart/mixed; boundary=a', 'multipart/form-data; boundary=a; boundary=b']) {
      expect(() => multipartBoundary(bad), bad).toThrow(FormDecodeError);
    }
  });
});
