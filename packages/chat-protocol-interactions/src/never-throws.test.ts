/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): every exported function
 * of interactions is never-throwing, and every `InteractionResolver` method
 * resolves to a typed result (never rejects) whatever the request. The
 * constructor throws `TypeError` only, on options it cannot use.
 */
import { baseCardCodec } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import {
  anyArguments,
  describeHostileContract,
  type FunctionClassification,
  type HostileTarget,
} from '../../../test-support/never-throws.js';
import { AT_EXPIRY, BEFORE_EXPIRY, CARD, OPENED_AT, PENDING_RECORD, SCHEMA, SCOPE, key, validate } from '../test/fixtures.js';
import { createStubStore } from '../test/stub-store.js';
import * as interactions from './index.js';

const parseCard = (card: unknown) => baseCardCodec.parseCard(card);
const stub = createStubStore();
const resolver = new interactions.InteractionResolver<string>({ store: stub.store, validate });
await resolver.open({ caller: 'ana', card: CARD, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT });
const method =
  (name: 'open' | 'submit' | 'decline' | 'cancel' | 'expire' | 'respond' | 'read') =>
  (...args: unknown[]) =>
    (resolver[name] as (...given: unknown[]) => Promise<unknown>)(...args);

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  parseInteractionRecord: {
    call: anyArguments(interactions.parseInteractionRecord),
    valid: [PENDING_RECORD, parseCard],
    returns: 'result',
  },
  isInteractionScope: { call: anyArguments(interactions.isInteractionScope), valid: [SCOPE], returns: 'boolean' },
  isInteractionSchemaRef: { call: anyArguments(interactions.isInteractionSchemaRef), valid: [SCHEMA], returns: 'boolean' },
  standardSchemaValidator: { call: anyArguments(interactions.standardSchemaValidator), valid: [() => undefined], returns: 'value' },
  'InteractionResolver.is': { call: (value) => interactions.InteractionResolver.is(value), valid: [resolver], returns: 'boolean' },
  'InteractionResolver.open': {
    call: method('open'),
    valid: [{ caller: 'ana', card: CARD, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT }],
    returns: 'result',
    async: true,
  },
  'InteractionResolver.submit': {
    call: method('submit'),
    valid: [{ ...key(), value: { optionId: 'refund' }, at: BEFORE_EXPIRY }],
    returns: 'result',
    async: true,
  },
  'InteractionResolver.decline': { call: method('decline'), valid: [{ ...key(), at: BEFORE_EXPIRY }], returns: 'result', async: true },
  'InteractionResolver.cancel': { call: method('cancel'), valid: [{ ...key(), at: BEFORE_EXPIRY }], returns: 'result', async: true },
  'InteractionResolver.expire': { call: method('expire'), valid: [{ ...key(), at: AT_EXPIRY }], returns: 'result', async: true },
  'InteractionResolver.respond': {
    call: method('respond'),
    valid: [
      {
        caller: 'ana',
        conversationId: 'conv_1',
        response: { action: 'submit', correlationId: 'card_refund_1', value: { optionId: 'refund' } },
        at: BEFORE_EXPIRY,
      },
    ],
    returns: 'result',
    async: true,
  },
  'InteractionResolver.read': { call: method('read'), valid: [{ ...key(), at: BEFORE_EXPIRY }], returns: 'result', async: true },
};

const throwing: FunctionClassification['throwing'] = {
  'new InteractionResolver': {
    call: (options: unknown) => new interactions.InteractionResolver(options as never),
    valid: [{ store: stub.store, validate, cards: baseCardCodec, clock: () => OPENED_AT }],
  },
};

describeHostileContract('interactions', interactions, {
  neverThrowing,
  throwing,
  others: {
    InteractionResolver: 'a class: its constructor and every method are targets above',
  },
});

const unreadable = { ok: false, code: 'invalid-request', message: 'expected a request object whose fields can be read' };

describe('interactions: exact outcomes of the hostile inputs issue 12 found', () => {
  it('parseInteractionRecord refuses a record or card parser it cannot use as invalid-record (§2.1)', () => {
    const cannotRead = {
      ok: false,
      code: 'invalid-record',
      message: 'record: it cannot be read',
      issues: [{ path: ['record'], message: 'it cannot be read' }],
    };
    expect(interactions.parseInteractionRecord(everyTrapThrows, parseCard)).toMatchObject({ ok: false, code: 'invalid-record' });
    expect(interactions.parseInteractionRecord(PENDING_RECORD, 'not a parser' as never)).toEqual(cannotRead);
    expect(interactions.parseInteractionRecord(PENDING_RECORD, throwHostile)).toEqual(cannotRead);
    expect(interactions.parseInteractionRecord(PENDING_RECORD, parseCard)).toMatchObject({ ok: true });
  });

  it('a revision of -0 is refused in a record and in a schema reference, since it would come back as 0 (issue 12)', () => {
    expect(interactions.isInteractionSchemaRef({ id: 'refund-choice', revision: -0 })).toBe(false);
    expect(interactions.isInteractionSchemaRef({ id: 'refund-choice', revision: 0 })).toBe(true);
    expect(
      interactions.parseInteractionRecord({ ...PENDING_RECORD, schema: { id: 'refund-choice', revision: -0 } }, parseCard),
    ).toMatchObject({
      ok: false,
      code: 'invalid-record',
      issues: [{ path: ['schema'] }],
    });
  });

  it('isInteractionScope and isInteractionSchemaRef are false for values they cannot read (§2.1)', () => {
    expect(interactions.isInteractionScope(everyTrapThrows)).toBe(false);
    expect(interactions.isInteractionSchemaRef(new Proxy({ ...SCHEMA }, { ownKeys: throwHostile }))).toBe(false);
  });

  it('every resolver method resolves unreadable requests to invalid-request, never rejecting (§7.5)', async () => {
    for (const name of ['open', 'submit', 'decline', 'cancel', 'expire', 'respond', 'read'] as const) {
      await expect(method(name)(null)).resolves.toEqual(unreadable);
      await expect(method(name)(everyTrapThrows)).resolves.toEqual(unreadable);
    }
    await expect(
      resolver.respond({ caller: 'ana', conversationId: 'conv_1', response: everyTrapThrows, at: BEFORE_EXPIRY }),
    ).resolves.toEqual({
      ok: false,
      code: 'invalid-request',
      message: 'response: expected a CardResponse',
    });
  });

  it('new InteractionResolver throws TypeError for options it cannot read or use (§2.1)', () => {
    expect(() => new interactions.InteractionResolver(null as never)).toThrow(
      new TypeError('InteractionResolver needs { store, validate, cards?, clock? }'),
    );
    expect(() => new interactions.InteractionResolver(everyTrapThrows as never)).toThrow(TypeError);
    expect(() => new interactions.InteractionResolver({ store: stub.store, validate, cards: {} as never })).toThrow(
      new TypeError('InteractionResolver: cards must have parseCard and validateResponse functions'),
    );
    expect(() => new interactions.InteractionResolver({ store: stub.store, validate, clock: 'now' as never })).toThrow(
      new TypeError('InteractionResolver: clock must be a function'),
    );
  });
});
