/**
 * A translated text with React nodes in its placeholders ("Delete {name}?" with the name in bold):
 * the words stay whole in the catalog, so a language can put the node where its grammar wants it.
 */
import { Fragment, type ReactNode } from 'react';
import type { Params } from '../lib/i18n/catalog';
import { t } from './i18n';

export function tRich(key: string, nodes: Readonly<Record<string, ReactNode>>, params?: Params): ReactNode {
  const parts = t(key, params).split(/\{(\w+)\}/);
  return parts.map((part, i) => (i % 2 ? <Fragment key={i}>{part in nodes ? nodes[part] : `{${part}}`}</Fragment> : part));
}
