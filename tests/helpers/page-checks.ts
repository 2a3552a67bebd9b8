// Checks several browser test files make on a page: axe's serious and critical findings, and the
// body's background (which theme is painted).
import type { Page } from 'playwright-core';
import { injectAxe } from './browser';

/** The body's background in the dark and in the light theme. */
export const DARK_BG = 'rgb(23, 24, 28)';
export const LIGHT_BG = 'rgb(255, 255, 255)';

export const bodyBg = (p: Page) => p.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** axe-core's serious and critical violations on the whole page, as 'rule: targets'. */
export async function axeSerious(p: Page): Promise<string[]> {
  await injectAxe(p);
  return p.evaluate(async () => {
    type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const res = await axe.run(document, { resultTypes: ['violations'] });
    return res.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
