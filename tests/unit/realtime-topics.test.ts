// Subscription topics as 0.22 reads them: base topic, `?options=` JSON with query/headers cast
// to strings and header names snake_cased; undecodable options count as none.
import { describe, expect, it } from 'vitest';
import { parseTopic, snakecase } from '../../server/realtime/topics';

describe('realtime topics', () => {
  it('splits the base topic from its options', () => {
    const t = parseTopic(`posts/*?options=${encodeURIComponent(JSON.stringify({ query: { filter: 'a=1', page: 2, flag: true, obj: { x: 1 } }, headers: { 'X-Token': 'abc', authCode: 5 } }))}`);
    expect(t.base).toBe('posts/*');
    expect(t.options.query).toEqual({ filter: 'a=1', page: '2', flag: 'true', obj: '' });
    expect(t.options.headers).toEqual({ x_token: 'abc', auth_code: '5' });
  });

  it('ignores undecodable options and keeps odd topics as they are', () => {
    for (const name of ['posts/*?options=%zz', 'posts/*?options={bad', 'posts/*?other=1']) {
      expect(parseTopic(name)).toMatchObject({ base: 'posts/*', options: { query: {}, headers: {} } });
    }
    expect(parseTopic('../../x').base).toBe('../../x');
  });

  it('gives equal options the same key whatever the key order', () => {
    const a = parseTopic(`p?options=${encodeURIComponent('{"query":{"a":"1","b":"2"}}')}`);
    const b = parseTopic(`p?options=${encodeURIComponent('{"query":{"b":"2","a":"1"}}')}`);
    expect(a.optionsKey).toBe(b.optionsKey);
  });

  it('snake_cases like 0.22', () => {
    expect(snakecase('X-Token')).toBe('x_token');
    expect(snakecase('someHeaderName')).toBe('some_header_name');
    expect(snakecase('ABC')).toBe('abc');
  });
});
