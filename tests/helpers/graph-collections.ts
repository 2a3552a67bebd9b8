// Generated collections for the relation graph's tests: `count` collections in a deterministic
// pseudo-random web of relations (a few hubs many point at, chains, several fields to one target,
// relations to the collection itself), as the unit tests lay them out and the browser test
// creates them through the API.

interface GeneratedField {
  name: string;
  type: 'text' | 'number' | 'bool' | 'relation';
  options?: { collectionId: string; maxSelect: number | null; cascadeDelete: boolean };
}

export interface GeneratedCollection {
  id: string;
  name: string;
  type: 'base';
  /** Fields created with the collection (relations to earlier ones only). */
  schema: GeneratedField[];
  /** Relations to itself, added by an update once the collection exists. */
  selfRelations: GeneratedField[];
}

const WORDS = ['accounts', 'orders', 'invoices', 'products', 'tags', 'comments', 'posts', 'teams', 'projects', 'tasks', 'events', 'tickets'];

/** A small seeded generator (mulberry32), so every run draws the same graph. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` collections; `usersId` (when given) is an existing collection some of them point at. */
export function generatedCollections(count: number, usersId?: string, seed = 28): GeneratedCollection[] {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const out: GeneratedCollection[] = [];
  for (let i = 0; i < count; i++) {
    const id = `gen${String(i).padStart(12, '0')}`;
    const name = `${WORDS[i % WORDS.length]}_${String(i).padStart(3, '0')}`;
    const schema: GeneratedField[] = [
      { name: 'title', type: 'text' },
      { name: 'amount', type: 'number' },
    ];
    if (rnd() < 0.5) schema.push({ name: 'active', type: 'bool' });
    const rel = (name: string, collectionId: string): GeneratedField => ({
      name,
      type: 'relation',
      options: { collectionId, maxSelect: rnd() < 0.5 ? 1 : null, cascadeDelete: rnd() < 0.25 },
    });
    if (usersId && rnd() < 0.3) schema.push(rel('owner', usersId));
    if (i > 0) {
      // the first few collections are hubs; the rest point at a hub, a recent one, or anywhere before
      const targets = new Set<number>();
      const n = 1 + Math.floor(rnd() * 3);
      for (let k = 0; k < n; k++) {
        const r = rnd();
        targets.add(r < 0.35 ? Math.floor(rnd() * Math.min(i, 4)) : r < 0.7 ? Math.max(0, i - 1 - Math.floor(rnd() * 4)) : Math.floor(rnd() * i));
      }
      for (const t of targets) {
        const target = out[t];
        // sometimes several fields point at the same collection (one bundle)
        const fields = rnd() < 0.2 ? 2 + Math.floor(rnd() * 5) : 1;
        for (let f = 0; f < fields; f++) schema.push(rel(`${target.name.split('_')[0]}_${t}_${f === 0 ? 'ref' : `ref_${pick(['extra', 'alt', 'backup', 'previous_owner_long_name'])}_${f}`}`, target.id));
      }
    }
    const selfRelations = rnd() < 0.08 ? [rel('parent', id)] : [];
    out.push({ id, name, type: 'base', schema, selfRelations });
  }
  return out;
}
