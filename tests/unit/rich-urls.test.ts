// @vitest-environment jsdom
// The editor field's convertUrls option (PocketBase maps it to TinyMCE's convert_urls with
// relative_urls off): off (the default) keeps link and image URLs as written, absolute ones
// absolute; on, URLs on the dashboard's origin are stored root-relative, others untouched.
import { describe, expect, it } from 'vitest';
import { convertUrl, htmlToRich, richToHtml, type RichElement } from '../../src/widgets/record/rich/html';

const BASE = 'http://127.0.0.1:8090/_/#/collections?collectionId=abc';
const ON = { convertUrls: true, base: BASE };

const doc = (url: string): RichElement[] => [
  {
    type: 'paragraph',
    children: [
      { type: 'link', url, children: [{ text: 'link' }] },
      { text: ' ' },
      { type: 'image', url, alt: 'pic', children: [{ text: '' }] },
    ],
  },
];

describe('convertUrl', () => {
  it('off (default): every URL as written', () => {
    const abs = 'http://127.0.0.1:8090/api/files/c/r/a.png?thumb=50x50';
    expect(convertUrl(abs)).toBe(abs);
    expect(convertUrl(abs, { base: BASE })).toBe(abs);
    expect(convertUrl(abs, { convertUrls: false, base: BASE })).toBe(abs);
  });

  it('on: same-origin absolute URLs become root-relative, query and hash kept', () => {
    expect(convertUrl('http://127.0.0.1:8090/api/files/c/r/a.png?thumb=50x50', ON)).toBe('/api/files/c/r/a.png?thumb=50x50');
    expect(convertUrl('http://127.0.0.1:8090/docs#top', ON)).toBe('/docs#top');
    expect(convertUrl('http://127.0.0.1:8090', ON)).toBe('/');
    expect(convertUrl('HTTP://127.0.0.1:8090/x', ON)).toBe('/x');
  });

  it('on: other origins, schemes, credentials and relative URLs untouched', () => {
    for (const url of [
      'https://127.0.0.1:8090/x', // another scheme is another origin
      'http://127.0.0.1:8091/x', // another port
      'http://example.com/x',
      'mailto:someone@example.com',
      'http://user:pw@127.0.0.1:8090/x',
      '/api/files/a.png',
      'images/a.png',
      '#anchor',
      '',
    ]) {
      expect(convertUrl(url, ON)).toBe(url);
    }
    // no base: nothing to compare with
    expect(convertUrl('http://127.0.0.1:8090/x', { convertUrls: true })).toBe('http://127.0.0.1:8090/x');
  });
});

describe('richToHtml with convertUrls', () => {
  it('keeps links and images absolute by default', () => {
    const html = richToHtml(doc('http://127.0.0.1:8090/api/files/c/r/a.png'));
    expect(html).toBe('<p><a href="http://127.0.0.1:8090/api/files/c/r/a.png">link</a> <img src="http://127.0.0.1:8090/api/files/c/r/a.png" alt="pic"></p>');
  });

  it('converts same-origin links and images, in nested blocks too, and still escapes', () => {
    const html = richToHtml(doc('http://127.0.0.1:8090/api/files/c/r/a.png?thumb=1&x="y"'), ON);
    expect(html).toBe('<p><a href="/api/files/c/r/a.png?thumb=1&amp;x=%22y%22">link</a> <img src="/api/files/c/r/a.png?thumb=1&amp;x=%22y%22" alt="pic"></p>');
    const list = richToHtml(htmlToRich('<ul><li><a href="http://127.0.0.1:8090/a">a</a> <a href="http://other.test/b">b</a></li></ul>'), ON);
    expect(list).toBe('<ul><li><a href="/a">a</a> <a href="http://other.test/b">b</a></li></ul>');
  });

  it('never lets an unsafe URL through, converted or not', () => {
    expect(richToHtml(doc('javascript:alert(1)'), ON)).toBe('<p>link </p>');
  });
});
