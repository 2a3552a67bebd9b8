// The coordinator's copies (issue 35, NATS): every change the leader makes reaches the copies, a
// member that joins loads the leader's counts, so whoever leads next answers from the same counts.
import { describe, expect, it } from 'vitest';
import { createCoordinator, type AttemptAnswer, type Coordinator } from '../../server/cluster/coordinator';

const question = (key: string, source = '10.0.0.1') => ({ name: 'admins', limit: 3, sourceLimit: 50, windowMs: 60_000, key, source });

/** A leader whose changes reach `copies` at once, as NATS delivers them. */
function leaderWith(copies: Coordinator[]): Coordinator {
  return createCoordinator({ idPrefix: 'a.', replicate: (change) => copies.forEach((c) => c.apply(change)) });
}

describe('cluster coordinator copies', () => {
  it("a copy blocks what the leader blocked, and takes back a success's count", async () => {
    const copy = createCoordinator({ idPrefix: 'b.' });
    const leader = leaderWith([copy]);
    const tickets: string[] = [];
    for (let i = 0; i < 3; i++) tickets.push(((await leader.answer('limit.attempt', question('x@example.com'))) as AttemptAnswer & { ticket: string }).ticket);
    expect(tickets.every((t) => t.startsWith('a.'))).toBe(true);
    expect(await copy.answer('limit.attempt', question('x@example.com'))).toMatchObject({ blocked: true });
    // another identity is not blocked on the copy
    expect(await copy.answer('limit.attempt', question('y@example.com'))).toMatchObject({ blocked: false });
    // a right password through the leader clears the identity on the copy too
    await leader.answer('limit.succeeded', { ticket: tickets[2] });
    expect(await copy.answer('limit.attempt', question('x@example.com'))).toMatchObject({ blocked: false, ticket: expect.stringMatching(/^b\./) });
  });

  it('a member that joins loads the counts and the held read slots', async () => {
    const leader = leaderWith([]);
    for (let i = 0; i < 3; i++) await leader.answer('limit.attempt', question('z@example.com'));
    const lease = await leader.answer('read.admit', { key: 'guest', share: 1, ttlMs: 10_000 });
    expect(lease).toEqual(expect.stringMatching(/^a\./));
    const joined = createCoordinator({ idPrefix: 'c.' });
    joined.load(JSON.parse(JSON.stringify(leader.snapshot())));
    expect(await joined.answer('limit.attempt', question('z@example.com'))).toMatchObject({ blocked: true });
    // the slot is held there too: a second asker waits, then goes without one
    expect(await joined.answer('read.admit', { key: 'guest', share: 1, ttlMs: 200 })).toBeNull();
    await joined.answer('read.release', { lease });
    expect(await joined.answer('read.admit', { key: 'guest', share: 1, ttlMs: 200 })).toEqual(expect.stringMatching(/^c\./));
    for (const c of [leader, joined]) c.close();
  });
});
