// Reads the relation graph's drawing in the browser and reports what would make it unreadable:
// an edge path entering a collection box it does not connect (points sampled along the path with
// getPointAtLength: every 12 units, and every 1.5 units wherever it comes within 12 units of a box), an edge label's box overlapping another label or a box, a
// label's text wider than its box, boxes overlapping each other. All in the drawing's own
// coordinates (boxes, labels and paths share one transformed group).
import type { Page } from 'playwright-core';

export interface GraphGeometry {
  problems: string[];
  nodes: number;
  edges: number;
  labels: number;
  samples: number;
}

// a string, so that the test runner's transforms never reach the code the page runs
const SCRIPT = `(() => {
  const n = (el, a) => Number(el.getAttribute(a));
  const rect = (el) => ({ x: n(el, 'x'), y: n(el, 'y'), w: n(el, 'width'), h: n(el, 'height') });
  const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  const boxes = [...document.querySelectorAll('.rg-node')].map((a) => ({ id: a.dataset.id, ...rect(a.querySelector('.rg-node-box')) }));
  const labels = [...document.querySelectorAll('.rg-edge-label')].map((g) => ({ id: g.dataset.edge, text: g.querySelector('text'), ...rect(g.querySelector('rect')) }));
  const problems = [];
  let samples = 0;
  const edges = [...document.querySelectorAll('.rg-edge')];
  for (const g of edges) {
    const path = g.querySelector('path');
    const len = path.getTotalLength();
    const hit = new Set();
    const others = boxes.filter((b) => b.id !== g.dataset.from && b.id !== g.dataset.to);
    const inBox = (p, b, m) => p.x > b.x + 0.5 - m && p.x < b.x + b.w - 0.5 + m && p.y > b.y + 0.5 - m && p.y < b.y + b.h - 0.5 + m;
    // every COARSE units; around a point within COARSE of a box, every FINE units (a point inside a
    // box lies within COARSE / 2 of some coarse point, arc length bounding distance)
    const COARSE = 12;
    const FINE = 1.5;
    for (let s = 0; s <= len + COARSE; s += COARSE) {
      const at = Math.min(s, len);
      const p = path.getPointAtLength(at);
      samples++;
      for (const b of others) {
        if (!inBox(p, b, COARSE)) continue;
        for (let f = Math.max(0, at - COARSE); f <= Math.min(len, at + COARSE); f += FINE) {
          const q = path.getPointAtLength(f);
          samples++;
          if (inBox(q, b, 0)) hit.add(b.id);
        }
      }
    }
    for (const id of hit) problems.push('edge ' + g.dataset.id + ' crosses box ' + id);
  }
  for (let i = 0; i < labels.length; i++) {
    for (let j = i + 1; j < labels.length; j++) if (overlap(labels[i], labels[j])) problems.push('label ' + labels[i].id + ' overlaps label ' + labels[j].id);
    for (const b of boxes) if (overlap(labels[i], b)) problems.push('label ' + labels[i].id + ' overlaps box ' + b.id);
    const t = labels[i].text.getBBox();
    if (t.x < labels[i].x || t.x + t.width > labels[i].x + labels[i].w || t.y < labels[i].y || t.y + t.height > labels[i].y + labels[i].h)
      problems.push('label ' + labels[i].id + ' text outside its box');
  }
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) if (overlap(boxes[i], boxes[j])) problems.push('box ' + boxes[i].id + ' overlaps box ' + boxes[j].id);
  return { problems, nodes: boxes.length, edges: edges.length, labels: labels.length, samples };
})()`;

export const graphGeometry = (page: Page): Promise<GraphGeometry> => page.evaluate(SCRIPT) as Promise<GraphGeometry>;

/** The current zoom (the drawing's scale) as the page reports it. */
export async function graphZoom(page: Page): Promise<number> {
  return Number(await page.locator('.relation-graph').getAttribute('data-zoom'));
}

/** The smallest on-screen size (px) of the visible text of the drawing's elements matching `selector`. */
export async function smallestText(page: Page, selector: string): Promise<number> {
  const k = await graphZoom(page);
  const sizes = await page.locator(selector).evaluateAll((els) => els.map((el) => parseFloat(getComputedStyle(el).fontSize)));
  return sizes.length ? Math.min(...sizes) * k : Infinity;
}

/** axe-core's serious and critical violations on the page (tests/helpers/browser.ts injects axe). */
export async function axeSerious(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    type Violation = { id: string; impact: string; nodes: Array<{ target: string[] }> };
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Violation[] }> } }).axe;
    const res = await axe.run(document, { resultTypes: ['violations'] });
    return res.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}
