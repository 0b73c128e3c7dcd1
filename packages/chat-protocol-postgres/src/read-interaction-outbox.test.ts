import { describe, expect, it } from 'vitest';
import { useTestDatabases } from '../test/databases.js';
import { answer, interceptCommit, lockWaiters, openCard, resolverOn, type Card } from '../test/interaction-cards.js';
import { readInteractionOutbox } from './index.js';

const databases = useTestDatabases();

const summary = (card: Card, entries: readonly { readonly transition: { readonly correlationId: string; readonly revision: number } }[]) =>
  entries.map(({ transition }) => `${transition.correlationId === card.correlationId ? 'this' : 'other'}#${transition.revision}`);

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('readInteractionOutbox on %s', (_name, database) => {
  it('returns the committed transitions in commit order with their ids, and pages by id', async () => {
    const card = await openCard(database());
    await resolverOn(card.store()).submit(answer(card, 'refund'));
    const all = await readInteractionOutbox(database(), { schema: card.schema });
    expect(all).toMatchObject({
      ok: true,
      value: [
        { transition: { type: 'interaction-opened', correlationId: card.correlationId, status: 'pending', revision: 1 } },
        { transition: { type: 'interaction-closed', correlationId: card.correlationId, status: 'submitted', revision: 2 } },
      ],
    });
    if (!all.ok) return;
    const [first, second] = all.value;
    expect(typeof first?.id === 'number' && typeof second?.id === 'number' && first.id < second.id).toBe(true);
    expect(await readInteractionOutbox(database(), { schema: card.schema, limit: 1 })).toEqual({ ok: true, value: [first] });
    expect(await readInteractionOutbox(database(), { schema: card.schema, after: first?.id ?? 0 })).toEqual({ ok: true, value: [second] });
    expect(await readInteractionOutbox(database(), { schema: card.schema, after: second?.id ?? 0 })).toEqual({ ok: true, value: [] });
  });

  it.each([
    [{ schema: 'Bad-Schema' }, 'invalid-schema'],
    [{ after: -1 }, 'invalid-request'],
    [{ after: 1.5 }, 'invalid-request'],
    [{ limit: 0 }, 'invalid-request'],
    [{ limit: 1_001 }, 'invalid-request'],
    [null, 'invalid-request'],
    [{ schema: 'no_such_schema' }, 'store-unavailable'],
  ])('refuses %j with %s, never a rejection', async (options, code) => {
    expect(await readInteractionOutbox(database(), options as never)).toMatchObject({ ok: false, code });
  });
});

describe('readInteractionOutbox on a real server', () => {
  it('a cursor never skips a transition: a write that took its outbox id first is visible before any later one', async () => {
    const first = await openCard(databases.postgres());
    const second = await openCard(databases.postgres(), first);
    const opened = await readInteractionOutbox(databases.postgres(), { schema: first.schema });
    const cursor = opened.ok ? (opened.value.at(-1)?.id ?? 0) : 0;
    let commitFirst: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      commitFirst = resolve;
    });
    let reached: () => void = () => undefined;
    const atCommit = new Promise<void>((resolve) => {
      reached = resolve;
    });
    // The first answer takes its outbox id, then waits before its COMMIT.
    const holding = interceptCommit(databases.postgres(), async (_pid, commit) => {
      reached();
      await held;
      await commit();
    });
    const slow = resolverOn(first.store(holding)).submit(answer(first, 'refund'));
    await atCommit;
    const fast = resolverOn(second.store()).submit(answer(second, 'replace'));
    await lockWaiters(databases.postgres(), 1);
    const meanwhile = await readInteractionOutbox(databases.postgres(), { schema: first.schema, after: cursor });
    const seen = meanwhile.ok ? (meanwhile.value.at(-1)?.id ?? cursor) : cursor;
    commitFirst();
    expect([await slow, await fast]).toMatchObject([
      { ok: true, outcome: 'submitted' },
      { ok: true, outcome: 'submitted' },
    ]);
    const after = await readInteractionOutbox(databases.postgres(), { schema: first.schema, after: seen });
    expect(after.ok && summary(first, after.value)).toEqual(['this#2', 'other#2']);
  });
});
