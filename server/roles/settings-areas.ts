// Which role area each part of the settings document belongs to, from the sections of
// schemas/settings/index.json (a section's schema file names its area below; a new section
// without one fails tests/server/roles-routes.test.ts) and the OAuth2 provider blocks, which are
// every top-level key no section covers. Meta is shared: its mail properties (sender, templates)
// belong to mail, the others to the application settings. A section marked 'full' is for full
// admins only.
import type { SettingsSection } from '../services/settings-index';
import type { AdminAccess, Area } from '../../src/lib/roles';

/** A role area, or 'full': no role grants it (the audit trail's retention: 0 clears the trail). */
type SettingsArea = Area | 'full';

export const AREA_OF_SETTINGS_SCHEMA: Record<string, SettingsArea> = {
  'settings/application': 'settings',
  'settings/mail': 'mail',
  'settings/logs': 'logs',
  'settings/smtp': 'mail',
  'settings/s3': 'storage',
  'settings/backups': 'backups',
  'settings/backups-s3': 'backups',
  'settings/tokens': 'tokens',
  'settings/email-auth': 'authProviders',
  'settings/trusted-proxy': 'settings',
  // the audit trail's retention: shortening it (0 turns it off) erases entries, so a scoped
  // admin could wipe the record of its own changes
  'settings/audit': 'full',
};

const holds = (access: AdminAccess, area: SettingsArea): boolean => (area === 'full' ? access.full : access.area(area));

/** Settings path (dot-joined, one or two levels) → area. */
function areaTable(sections: SettingsSection[]): Map<string, SettingsArea> {
  const table = new Map<string, SettingsArea>();
  for (const s of sections) {
    const area = AREA_OF_SETTINGS_SCHEMA[s.schema] ?? 'settings';
    const props = s.json.properties && typeof s.json.properties === 'object' ? Object.keys(s.json.properties) : [];
    const top = s.bind.split('.')[0];
    if (s.bind === '') for (const p of props) table.set(p, area);
    else for (const p of props) table.set(`${top}.${s.bind.includes('.') ? s.bind.split('.')[1] : p}`, area);
  }
  return table;
}

/** The areas under one top-level key: one (the key is whole) or several (judged per property). */
function areasUnder(table: Map<string, SettingsArea>, key: string): Set<SettingsArea> {
  const out = new Set<SettingsArea>();
  for (const [path, area] of table) if (path === key || path.startsWith(`${key}.`)) out.add(area);
  if (out.size === 0) out.add('authProviders'); // an OAuth2 provider block
  return out;
}

function areaOfProperty(table: Map<string, SettingsArea>, key: string, prop: string): SettingsArea {
  return table.get(`${key}.${prop}`) ?? [...areasUnder(table, key)][0];
}

/** The settings document with only the parts `access` may see. */
export function visibleSettings(sections: SettingsSection[], doc: Record<string, unknown>, access: AdminAccess): Record<string, unknown> {
  const table = areaTable(sections);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) {
    const areas = areasUnder(table, key);
    if (areas.size === 1) {
      if (holds(access, [...areas][0])) out[key] = value;
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const part: Record<string, unknown> = {};
    for (const [prop, v] of Object.entries(value)) if (holds(access, areaOfProperty(table, key, prop))) part[prop] = v;
    if (Object.keys(part).length) out[key] = part;
  }
  return out;
}

/** Whether every part a settings patch touches belongs to an area `access` holds. */
export function mayPatchSettings(sections: SettingsSection[], patch: Record<string, unknown>, access: AdminAccess): boolean {
  const table = areaTable(sections);
  return Object.entries(patch).every(([key, value]) => {
    const areas = areasUnder(table, key);
    if (areas.size === 1) return holds(access, [...areas][0]);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return [...areas].every((a) => holds(access, a));
    return Object.keys(value).every((prop) => holds(access, areaOfProperty(table, key, prop)));
  });
}
