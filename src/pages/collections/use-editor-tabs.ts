import { useEffect, useState, type KeyboardEvent } from 'react';
import { t } from '../../ui/i18n';

type Tab = 'fields' | 'rules' | 'options';

/**
 * The editor's tabs (Query instead of Fields for views; Options for auth collections and wherever
 * the record history option shows) and their arrow-key navigation.
 */
export function useEditorTabs(isView: boolean, isAuth: boolean, hasHistory = false) {
  const [tab, setTab] = useState<Tab>('fields');
  const hasOptions = isAuth || hasHistory;

  useEffect(() => {
    if (tab === 'options' && !hasOptions) setTab('fields');
  }, [tab, hasOptions]);

  const tabs: { key: Tab; label: string }[] = [
    { key: 'fields', label: t(isView ? 'collections.tabQuery' : 'collections.fields') },
    { key: 'rules', label: t('collections.tabRules') },
    ...(hasOptions ? [{ key: 'options' as Tab, label: t('collections.tabOptions') }] : []),
  ];
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
    e.preventDefault();
    const i = tabs.findIndex((t) => t.key === tab);
    const next = tabs[(i + (e.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    setTab(next.key);
    requestAnimationFrame(() => document.getElementById(`collection-tab-${next.key}`)?.focus());
  };
  return { tab, setTab, tabs, onTabKey };
}
