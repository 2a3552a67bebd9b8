import { useEffect, useState, type KeyboardEvent } from 'react';

type Tab = 'fields' | 'rules' | 'options';

/** The editor's tabs (Query instead of Fields for views, Options for auth only) and their arrow-key navigation. */
export function useEditorTabs(isView: boolean, isAuth: boolean) {
  const [tab, setTab] = useState<Tab>('fields');

  // Options exist for auth collections only.
  useEffect(() => {
    if (tab === 'options' && !isAuth) setTab('fields');
  }, [tab, isAuth]);

  const tabs: { key: Tab; label: string }[] = [
    { key: 'fields', label: isView ? 'Query' : 'Fields' },
    { key: 'rules', label: 'API Rules' },
    ...(isAuth ? [{ key: 'options' as Tab, label: 'Options' }] : []),
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
