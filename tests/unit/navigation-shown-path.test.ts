// setQueryParams (src/shell/navigation.ts) writes only onto the address of the screen on show: a page
// still shown while the next route's code loads must not carry its params to the next screen
// (a collection's id once followed the admin to #/logs).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setQueryParams, setShownPath } from '../../src/shell/navigation';

const g = globalThis as unknown as { window?: unknown; Event?: unknown };
let hash = '';

beforeEach(() => {
  hash = '';
  g.window = {
    location: {
      get hash() {
        return hash;
      },
    },
    history: { state: null, replaceState: (_s: unknown, _t: string, url: string) => void (hash = url), pushState: (_s: unknown, _t: string, url: string) => void (hash = url) },
    dispatchEvent: () => true,
  };
});

afterEach(() => {
  setShownPath(null);
  delete g.window;
});

describe('setQueryParams and the shown path', () => {
  it('merges params into the address of the screen on show', () => {
    hash = '#/collections?collectionId=abc';
    setShownPath('/collections');
    setQueryParams({ sort: '-number' });
    expect(hash).toBe('#/collections?collectionId=abc&sort=-number');
  });

  it("ignores a leaving page's write once the address names another screen", () => {
    hash = '#/logs';
    setShownPath('/collections');
    setQueryParams({ collectionId: 'abc', filter: null });
    expect(hash).toBe('#/logs');
    setShownPath('/logs');
    setQueryParams({ adminRequests: 1 });
    expect(hash).toBe('#/logs?adminRequests=1');
  });
});
