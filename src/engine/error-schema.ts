/**
 * Helpers over rjsf's ErrorSchema: which errors are visible (touched fields or after a submit
 * attempt), merging validation and server errors, and mapping paths to rjsf's field ids.
 */
import type { ErrorSchema } from '@rjsf/utils';

type Node = Record<string, unknown> & { __errors?: string[] };

/** rjsf's id for the field at `path` (ids are the prefix and the path joined with '_'). */
export function fieldIdOf(idPrefix: string, path: readonly string[]): string {
  return [idPrefix, ...path].join('_');
}

/** Every path that carries errors, with its messages. */
export function errorEntries(schema: ErrorSchema | undefined, base: string[] = []): [string[], string[]][] {
  if (!schema) return [];
  const node = schema as Node;
  const out: [string[], string[]][] = [];
  if (Array.isArray(node.__errors) && node.__errors.length) out.push([base, node.__errors]);
  for (const [k, v] of Object.entries(node)) {
    if (k !== '__errors' && v && typeof v === 'object') out.push(...errorEntries(v as ErrorSchema, [...base, k]));
  }
  return out;
}

/** Rebuilds an ErrorSchema from entries, keeping only those `keep` accepts. */
export function buildErrorSchema(entries: [string[], string[]][], keep: (path: string[]) => boolean = () => true): ErrorSchema {
  const root: Node = {};
  for (const [path, messages] of entries) {
    if (!keep(path) || !messages.length) continue;
    let node = root;
    for (const key of path) node = (node[key] ??= {}) as Node;
    node.__errors = [...(node.__errors ?? []), ...messages.filter((m) => !node.__errors?.includes(m))];
  }
  return root as ErrorSchema;
}

/**
 * An error's path cut at the first part a UI schema draws with one widget (a list in a `csv`
 * input, an object in a picker): errors of its items belong under that widget, which has no
 * field per item to show them (nor to be left, which reveals them).
 */
export function widgetPath(path: readonly string[], uiSchema: unknown): string[] {
  let ui: unknown = uiSchema;
  for (let i = 0; i < path.length; i++) {
    if (i > 0 && ui && typeof ui === 'object' && typeof (ui as Record<string, unknown>)['ui:widget'] === 'string') return path.slice(0, i);
    const node = (ui && typeof ui === 'object' ? ui : {}) as Record<string, unknown>;
    ui = /^\d+$/.test(path[i]) ? node.items : node[path[i]];
  }
  return [...path];
}

/** Value at a path of plain data, for comparing a field before and after a change. */
export function getAt(data: unknown, path: readonly string[]): unknown {
  let node = data;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

