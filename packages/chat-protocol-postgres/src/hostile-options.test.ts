import { describe, expect, it } from 'vitest';
import { everyTrapThrows, syncOutcomeOf, throwHostile } from '../../../test-support/hostile-values.js';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import {
  classifyDatabaseError,
  createPostgresChatStore,
  createPostgresEventLog,
  createPostgresInteractionStore,
  createPostgresTurnStore,
  migrateChatStore,
  pgDatabase,
  pgliteDatabase,
  readInteractionOutbox,
  type ChatDatabase,
} from './index.js';

// Issue 24: hostile options and databases. A promise documented never to reject holds on every argument;
// a factory documented to throw throws a TypeError at creation, never something else, never later.
const databases = useTestDatabases();

const HOSTILE_MESSAGE = 'hostile value: this read was refused on purpose';

/** `{ [key]: <a getter that throws> }`. */
const throwingGetter = (key: string): object => Object.defineProperty({}, key, { enumerable: true, get: throwHostile });

/** A database every member of which throws when read: `typeof` is all that works on it. */
const proxyDatabase = everyTrapThrows as ChatDatabase;

/** A database whose statements and sessions reject with a value that cannot be read (a Proxy whose traps throw). */
const rejectingWithProxy: ChatDatabase = {
  query: () => Promise.reject(everyTrapThrows),
  session: () => Promise.reject(everyTrapThrows),
  listen: () => Promise.reject(everyTrapThrows),
};

const INVALID_OPTIONS = { ok: false, code: 'invalid-schema', message: 'the options must be an object whose schema can be read' };

describe('migrateChatStore never rejects, whatever its options or database (issue 24)', () => {
  it.each([
    ['a throwing schema getter', throwingGetter('schema')],
    ['a Proxy whose traps throw', everyTrapThrows],
    ['null', null],
    ['a string', 'chat_protocol'],
  ])('options that are %s are invalid-schema', async (_what, options) => {
    expect(await migrateChatStore(databases.pglite(), options as never)).toEqual(INVALID_OPTIONS);
  });

  it('reads the schema once: a getter that answers a valid name, then another, migrates the first', async () => {
    const schema = freshSchema('hostile_options');
    let reads = 0;
    const options = {
      get schema() {
        reads += 1;
        return reads === 1 ? schema : 'Not An Identifier';
      },
    };
    expect(await migrateChatStore(databases.pglite(), options)).toMatchObject({ ok: true, schema, toVersion: 3 });
    expect(reads).toBe(1);
  });

  it('a Proxy database is store-unavailable with the reason it threw; a rejection that cannot be read is store-unavailable too', async () => {
    expect(await migrateChatStore(proxyDatabase)).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: `the migration could not finish: ${HOSTILE_MESSAGE}`,
    });
    expect(await migrateChatStore(rejectingWithProxy)).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: 'the migration could not finish: the store could not answer',
    });
    expect(await migrateChatStore(null as never)).toMatchObject({ ok: false, code: 'store-unavailable' });
  });
});

describe('the store factories throw TypeError at creation for options they cannot read (issue 24)', () => {
  const factories = {
    createPostgresChatStore: (options: unknown) => createPostgresChatStore(databases.pglite(), options as never),
    createPostgresTurnStore: (options: unknown) => createPostgresTurnStore(databases.pglite(), options as never),
    createPostgresInteractionStore: (options: unknown) => createPostgresInteractionStore(databases.pglite(), options as never),
    createPostgresEventLog: (options: unknown) => createPostgresEventLog(databases.pglite(), options as never),
  };
  const cases: readonly (readonly [string, unknown])[] = [
    ['a throwing schema getter', throwingGetter('schema')],
    ['a Proxy whose traps throw', everyTrapThrows],
    ['null', null],
  ];
  for (const [factory, create] of Object.entries(factories)) {
    it.each(cases)(`${factory}: options that are %s are a TypeError`, (_what, options) => {
      expect(() => create(options)).toThrow(new TypeError(`${factory}: the options must be an object whose fields can be read`));
    });
  }

  it.each([
    ['authorizeDispatch', 'createPostgresTurnStore'],
    ['interactionAuthority', 'createPostgresInteractionStore'],
    ['authorizeConversation', 'createPostgresChatStore'],
  ])('a %s that is not a function is a TypeError', (option, factory) => {
    expect(() => createPostgresChatStore(databases.pglite(), { [option]: 'yes' })).toThrow(
      new TypeError(`${factory}: ${option} must be a function`),
    );
  });

  it('createPostgresChatStore reads each option once, so every component gets the same schema', async () => {
    const schema = freshSchema('hostile_options');
    expect(await migrateChatStore(databases.pglite(), { schema })).toMatchObject({ ok: true });
    let reads = 0;
    const options = {
      get schema() {
        reads += 1;
        return reads === 1 ? schema : 'chat_protocol_elsewhere';
      },
    };
    const store = createPostgresChatStore(databases.pglite(), options);
    expect(reads).toBe(1);
    const key = { conversationId: 'conv_once', turnId: 'turn_once' };
    const envelope = {
      schemaVersion: 1 as const,
      ...key,
      eventId: 'evt_1',
      seq: 1,
      occurredAt: '2031-05-01T08:00:00Z',
      event: { type: 'done' as const, status: 'completed' as const },
    };
    expect(await store.eventLog.append(envelope)).toMatchObject({ ok: true, outcome: 'appended' });
    expect(await store.readConversationLog({ conversationId: key.conversationId })).toMatchObject({
      ok: true,
      value: { turns: [{ turnId: key.turnId }] },
    });
  });

  it('over a Proxy database the store is created (it reads nothing yet), and its never-rejecting methods answer store-unavailable', async () => {
    const store = createPostgresChatStore(proxyDatabase, { authorizeConversation: () => true });
    const key = { conversationId: 'conv_proxy', turnId: 'turn_proxy' };
    const envelope = {
      schemaVersion: 1 as const,
      ...key,
      eventId: 'evt_1',
      seq: 1,
      occurredAt: '2031-05-01T08:00:00Z',
      event: { type: 'done' as const, status: 'completed' as const },
    };
    expect(await store.eventLog.append(envelope)).toEqual({ ok: false, code: 'store-unavailable', message: `append: ${HOSTILE_MESSAGE}` });
    expect(await store.eventLog.pruneTurns({ before: '2031-05-01T08:00:00Z' })).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: `pruneTurns: ${HOSTILE_MESSAGE}`,
    });
    expect(await store.readConversationLog({ conversationId: key.conversationId })).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: `readConversationLog: ${HOSTILE_MESSAGE}`,
    });
    expect(await readInteractionOutbox(proxyDatabase)).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: `the outbox could not be read: ${HOSTILE_MESSAGE}`,
    });
    // The backend could not answer: the methods without a refusal reject, which is what a rejection means.
    await expect(store.eventLog.replayWindow({ ...key, after: 0 })).rejects.toThrow(HOSTILE_MESSAGE);
    await expect(store.turnStore.read(key.turnId)).rejects.toThrow(HOSTILE_MESSAGE);
  });

  it('a database that rejects with a value that cannot be read: the never-rejecting methods still answer store-unavailable', async () => {
    const store = createPostgresChatStore(rejectingWithProxy);
    const envelope = {
      schemaVersion: 1 as const,
      conversationId: 'conv_r',
      turnId: 'turn_r',
      eventId: 'evt_1',
      seq: 1,
      occurredAt: '2031-05-01T08:00:00Z',
      event: { type: 'done' as const, status: 'completed' as const },
    };
    expect(await store.eventLog.append(envelope)).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: 'append: the store could not answer',
    });
    expect(await readInteractionOutbox(rejectingWithProxy)).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: 'the outbox could not be read: the store could not answer',
    });
  });
});

describe('classifyDatabaseError never throws on what a driver throws (issue 24)', () => {
  it.each([
    ['a Proxy whose traps throw', everyTrapThrows],
    ['a throwing code getter', throwingGetter('code')],
    ['a throwing message getter', Object.defineProperty(new Error('x'), 'message', { get: throwHostile })],
  ])('%s is other', (_what, error) => {
    expect(classifyDatabaseError(error)).toBe('other');
  });
});

describe('the driver adapters on hostile drivers (issue 24)', () => {
  it.each([
    ['null', null],
    ['a string', 'postgres://localhost'],
    ['a Proxy whose traps throw', everyTrapThrows],
    ['a pool whose totalCount getter throws', throwingGetter('totalCount')],
    ['a pool whose on throws', { totalCount: 0, on: throwHostile }],
  ])('pgDatabase over %s is a TypeError at creation', (_what, driver) => {
    expect(() => pgDatabase(driver as never)).toThrow(TypeError);
  });

  it('pgliteDatabase over a non-object is a TypeError; over a Proxy it is created and its statements and sessions reject, never throw', async () => {
    expect(() => pgliteDatabase(null as never)).toThrow(new TypeError('pgliteDatabase: expected a PGlite instance'));
    const database = pgliteDatabase(everyTrapThrows as never);
    for (const call of [
      () => database.query('SELECT 1'),
      () => database.session(async () => 1),
      () =>
        database.listen(
          'chat_channel',
          () => undefined,
          () => undefined,
        ),
    ]) {
      const outcome = syncOutcomeOf(call);
      expect('returned' in outcome).toBe(true);
      if ('returned' in outcome) await expect(outcome.returned).rejects.toThrow(HOSTILE_MESSAGE);
    }
  });
});
