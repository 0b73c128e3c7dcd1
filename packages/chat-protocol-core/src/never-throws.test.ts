/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): every exported function
 * of core is either never-throwing (a typed refusal, `null` or `false` for any
 * argument, hostile ones included) or documented as throwing `TypeError` only.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { everyTrapThrows, prototypeChanges, snapshotPrototypes, throwHostile } from '../../../test-support/hostile-values.js';
import {
  anyArguments,
  describeHostileContract,
  type FunctionClassification,
  type HostileTarget,
} from '../../../test-support/never-throws.js';
import { RADIO_CARD, SAMPLE_SESSION, envelopeOf } from '../test/envelopes.js';
import * as core from './index.js';
import * as internal from './internal.js';

const envelope = envelopeOf({ type: 'delta', text: 'Hello' });
const state = SAMPLE_SESSION.reduce((current, next) => {
  const applied = core.applyChatEvent(current, next);
  if (!applied.ok) throw new Error(applied.message);
  return applied.state;
}, core.createChatState('conv_1'));
const submit = { action: 'submit', correlationId: 'card_1', value: { optionId: 'pro' } };
const ratingKind = { presentation: z.strictObject({ max: z.number() }), value: z.number() };
const codec = core.createChatCodec({ cards: core.baseCardCodec });
const productCodec = core.createChatCodec({
  events: { 'scout.products': { schema: z.strictObject({ products: z.array(z.string()) }), channel: 'state' } },
});
const productEnvelope = envelopeOf({ type: 'scout.products', data: { products: ['p1'] } });

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  negotiateChatVersion: { call: anyArguments(core.negotiateChatVersion), valid: [1], returns: 'value' },
  parseChatCapabilities: {
    call: anyArguments(core.parseChatCapabilities),
    valid: [{ ...core.LIGHTWEIGHT_CHAT_CAPABILITIES }],
    returns: 'result',
  },
  requireChatCapabilities: {
    call: anyArguments(core.requireChatCapabilities),
    valid: [{ ...core.LIGHTWEIGHT_CHAT_CAPABILITIES }, ['connectionReplay']],
    returns: 'result',
  },
  isChatId: { call: anyArguments(core.isChatId), valid: ['turn_1'], returns: 'boolean' },
  isCleanText: { call: anyArguments(core.isCleanText), valid: ['clean text'], returns: 'boolean' },
  isProductEventName: { call: anyArguments(core.isProductEventName), valid: ['scout.products'], returns: 'boolean' },
  hasBrand: { call: anyArguments(internal.hasBrand), valid: [{ [Symbol.for('brand')]: true }, Symbol.for('brand')], returns: 'boolean' },
  isSafeJson: { call: anyArguments(core.isSafeJson), valid: [{ hits: [1, 'two', null, { deep: true }] }], returns: 'boolean' },
  isReportExtensionName: { call: anyArguments(internal.isReportExtensionName), valid: ['goalReport'], returns: 'boolean' },
  isZonedTimestamp: { call: anyArguments(core.isZonedTimestamp), valid: ['2026-11-29T12:00:00Z'], returns: 'boolean' },
  compareChatTimestamps: {
    call: anyArguments(core.compareChatTimestamps),
    valid: ['2026-11-29T12:00:00Z', '2026-11-29T12:00:01Z'],
    returns: 'value',
  },
  readFields: {
    call: anyArguments(internal.readFields),
    valid: [{ caller: 'alice', turnId: 'turn_1' }, ['caller', 'turnId']],
    returns: 'value',
  },
  refuse: { call: anyArguments(internal.refuse), valid: ['invalid-thing', 'why', [{ path: ['a', 0], message: 'bad' }]], returns: 'value' },
  channelOf: { call: anyArguments(core.channelOf), valid: ['delta'], returns: 'value' },
  isChatEventTypeV1: { call: anyArguments(core.isChatEventTypeV1), valid: ['delta'], returns: 'boolean' },
  defineCardKind: { call: anyArguments(core.defineCardKind), valid: [ratingKind], returns: 'value' },
  cardDeadline: {
    call: anyArguments(core.cardDeadline),
    valid: [{ createdAt: '2026-11-29T12:00:00Z', timeoutMs: 1000 }],
    returns: 'value',
  },
  promptOnlyCardKind: { call: anyArguments(core.promptOnlyCardKind), valid: [{ prompt: 'Anything else?' }], returns: 'value' },
  isCardDataSchemaJson: { call: anyArguments(core.isCardDataSchemaJson), valid: [{ type: 'object' }], returns: 'boolean' },
  parseOpenCardSnapshot: { call: anyArguments(core.parseOpenCardSnapshot), valid: [RADIO_CARD], returns: 'result' },
  validateCardResponse: { call: anyArguments(core.validateCardResponse), valid: [RADIO_CARD, submit], returns: 'result' },
  'baseCardCodec.parseCard': { call: anyArguments(core.baseCardCodec.parseCard), valid: [RADIO_CARD], returns: 'result' },
  'baseCardCodec.validateResponse': {
    call: anyArguments(core.baseCardCodec.validateResponse),
    valid: [RADIO_CARD, submit],
    returns: 'result',
  },
  parseChatEnvelope: { call: anyArguments(core.parseChatEnvelope), valid: [envelope], returns: 'result' },
  encodeChatEnvelope: { call: anyArguments(core.encodeChatEnvelope), valid: [envelope], returns: 'result' },
  chatEventEnvelopeJsonSchema: { call: anyArguments(core.chatEventEnvelopeJsonSchema), valid: [undefined], returns: 'value' },
  parseChatCursor: { call: anyArguments(core.parseChatCursor), valid: ['turn_1:3'], returns: 'value' },
  parseChatSseMessage: {
    call: anyArguments(core.parseChatSseMessage),
    valid: [{ event: 'delta', data: JSON.stringify(envelope), id: 'turn_1:1' }],
    returns: 'result',
  },
  parseChatState: { call: anyArguments(core.parseChatState), valid: [state], returns: 'result' },
  parseChatHistoryPage: {
    call: anyArguments(core.parseChatHistoryPage),
    valid: [{ turns: core.historyFromChatState(state), hasMoreEarlier: false }],
    returns: 'result',
  },
  'createChatCodec().parseChatEnvelope': { call: anyArguments(codec.parseChatEnvelope), valid: [envelope], returns: 'result' },
  'createChatCodec().parseChatState': { call: anyArguments(codec.parseChatState), valid: [state], returns: 'result' },
  'createChatCodec({ events }).parseChatEnvelope': {
    call: anyArguments(productCodec.parseChatEnvelope),
    valid: [productEnvelope],
    returns: 'result',
  },
  'createChatCodec({ events }).encodeChatEnvelope': {
    call: anyArguments(productCodec.encodeChatEnvelope),
    valid: [productEnvelope],
    returns: 'result',
  },
  'createChatCodec({ events }).parseChatState': { call: anyArguments(productCodec.parseChatState), valid: [state], returns: 'result' },
  'createChatCodec({ events }).parseChatSseMessage': {
    call: anyArguments(productCodec.parseChatSseMessage),
    valid: [{ event: 'scout.products', data: JSON.stringify(productEnvelope), id: 'turn_1:1' }],
    returns: 'result',
  },
  isStateChannelEvent: { call: anyArguments(core.isStateChannelEvent), valid: ['card'], returns: 'boolean' },
  isReplayableEvent: { call: anyArguments(core.isReplayableEvent), valid: ['delta'], returns: 'boolean' },
  isChatEventType: { call: anyArguments(core.isChatEventType), valid: ['delta'], returns: 'boolean' },
  parseChatEvent: { call: anyArguments(core.parseChatEvent), valid: ['delta', { text: 'Hello' }], returns: 'value' },
};

const throwing: FunctionClassification['throwing'] = {
  formatChatCursor: { call: anyArguments(core.formatChatCursor), valid: [{ turnId: 'turn_1', seq: 3 }] },
  encodeChatSseFrame: { call: anyArguments(core.encodeChatSseFrame), valid: [envelope] },
  createChatState: { call: anyArguments(core.createChatState), valid: ['conv_1'] },
  createCardCodec: { call: anyArguments(core.createCardCodec), valid: [{ kinds: { rating: ratingKind } }] },
  createChatCodec: { call: anyArguments(core.createChatCodec), valid: [{ cards: core.baseCardCodec }] },
  'createChatCodec({ events }).encodeChatSseFrame': { call: anyArguments(productCodec.encodeChatSseFrame), valid: [productEnvelope] },
};

// Both entries: the root and `./internal`, the helpers the other @papercusp packages share.
const entries = { ...core, ...internal };

describeHostileContract('core', entries, {
  neverThrowing,
  throwing,
  others: {
    applyChatEvent: 'takes the values parseChatState and parseChatEnvelope (or a codec) returned, not arbitrary values',
    digestEnvelope:
      "takes an envelope parseChatEnvelope returned, as the reducer's memory does; on other values it throws what canonicalJson throws",
    canonicalJson:
      'takes JSON data the caller has checked (isSafeJson); on other values it throws what JSON.stringify throws, as canonical-json.test.ts states',
    historyFromChatState: 'takes a state parseChatState or applyChatEvent returned, not arbitrary values',
    customCheck: 'a zod schema builder a package calls once with its own function; zod reports what it is given',
    exactOptional: 'a zod schema builder: it takes a zod schema, as z.optional does',
    strictExactObject: 'a zod schema builder: it takes a shape of zod schemas, as z.strictObject does',
    trimmedTextSchema: 'a zod schema builder called with a literal bound; report-block.test.ts checks the schemas it builds',
  },
});

const proxyThrowingOnHas = <Target extends object>(target: Target): Target => new Proxy(target, { has: throwHostile });

describe('core: exact outcomes of the hostile inputs issue 12 found', () => {
  it('isCleanText is false for a non-string, never coercing it (issue 12)', () => {
    expect(core.isCleanText(Symbol('text') as unknown as string)).toBe(false);
    expect(core.isCleanText({ [Symbol.toPrimitive]: throwHostile } as unknown as string)).toBe(false);
    expect(core.isCleanText(['clean'] as unknown as string)).toBe(false);
  });

  it('isSafeJson is false for a value that cannot be read (issue 12)', () => {
    expect(core.isSafeJson(everyTrapThrows)).toBe(false);
    expect(core.isSafeJson(Object.defineProperty({}, 'a', { enumerable: true, get: throwHostile }))).toBe(false);
  });

  it('refuse omits issues it cannot read (issue 12)', () => {
    expect(internal.refuse('invalid-thing', 'why', null as never)).toEqual({ ok: false, code: 'invalid-thing', message: 'why' });
    expect(internal.refuse('invalid-thing', 'why', new Proxy([], { get: throwHostile }))).toEqual({
      ok: false,
      code: 'invalid-thing',
      message: 'why',
    });
  });

  it('parseOpenCardSnapshot refuses a card whose Proxy throws as invalid-card (§2.1)', () => {
    expect(core.parseOpenCardSnapshot(everyTrapThrows)).toEqual({
      ok: false,
      code: 'invalid-card',
      message: 'the card is not JSON data',
      issues: [{ path: [], message: 'not JSON data (it cannot be read)' }],
    });
    expect(core.parseOpenCardSnapshot(proxyThrowingOnHas({ ...RADIO_CARD }))).toEqual({
      ok: false,
      code: 'invalid-card',
      message: 'the card cannot be read',
    });
  });

  it('validateCardResponse refuses an unreadable card as invalid-card and an unreadable response as invalid-response (§2.1)', () => {
    expect(core.validateCardResponse(everyTrapThrows as never, submit)).toMatchObject({ ok: false, code: 'invalid-card' });
    expect(core.validateCardResponse(null as never, submit)).toMatchObject({ ok: false, code: 'invalid-card' });
    expect(core.validateCardResponse(RADIO_CARD as never, everyTrapThrows)).toMatchObject({ ok: false, code: 'invalid-response' });
    expect(core.validateCardResponse(RADIO_CARD as never, proxyThrowingOnHas({ ...submit }))).toEqual({
      ok: false,
      code: 'invalid-response',
      message: 'the response cannot be read',
    });
  });

  it('encodeChatEnvelope refuses a record that cannot be read, or is cyclic, as invalid-envelope (§3.4)', () => {
    expect(core.encodeChatEnvelope(everyTrapThrows as never)).toEqual({
      ok: false,
      code: 'invalid-envelope',
      message: 'the record cannot be read or serialized',
    });
    const cyclic: Record<string, unknown> = { type: 'state', version: 1 };
    cyclic['snapshot'] = cyclic;
    expect(core.encodeChatEnvelope({ ...envelope, event: cyclic })).toEqual({
      ok: false,
      code: 'invalid-envelope',
      message: 'the record cannot be read or serialized',
    });
  });

  it('formatChatCursor, createCardCodec and createChatCodec throw TypeError, and only TypeError, on unreadable options (§2.1)', () => {
    expect(() => core.formatChatCursor(everyTrapThrows as never)).toThrow(TypeError);
    expect(() => core.formatChatCursor(null as never)).toThrow(TypeError);
    expect(() => core.createCardCodec(everyTrapThrows as never)).toThrow(TypeError);
    expect(() => core.createCardCodec({ kinds: { rating: everyTrapThrows } } as never)).toThrow(TypeError);
    expect(() => core.createChatCodec(null as never)).toThrow(TypeError);
    expect(() => core.createChatCodec(everyTrapThrows as never)).toThrow(TypeError);
    expect(() => core.createChatCodec({ cards: {} } as never)).toThrow(
      new TypeError('createChatCodec needs { cards: a card codec from createCardCodec or baseCardCodec }'),
    );
  });

  it('a count written as -0 is refused, since it would come back as 0 (issue 12)', () => {
    const stateEvent = JSON.stringify(envelopeOf({ type: 'state', version: 7, snapshot: null })).replace('"version":7', '"version":-0');
    expect(core.parseChatEnvelope(stateEvent)).toMatchObject({
      ok: false,
      code: 'invalid-event',
      issues: [{ path: ['event', 'version'] }],
    });
    const withHostState = JSON.parse(JSON.stringify(state)) as { turns: { hostState: unknown }[] };
    const text = JSON.stringify(withHostState).replace(/"hostState":\{"version":\d+/, '"hostState":{"version":-0');
    expect(text).toContain('"version":-0');
    expect(core.parseChatState(text)).toMatchObject({ ok: false, code: 'invalid-state' });
    expect(() => core.formatChatCursor({ turnId: 'turn_1', seq: -0 })).toThrow(TypeError);
  });
});

describe('-0 in the exported schemas (issue 12)', () => {
  // The hot-path validator refuses -0 through isCount; the zod schemas users
  // call directly must give the same verdict, or the two readings drift.
  const errorEvent = { type: 'error', code: 'rate-limited', message: 'slow down', retryable: true, retryAfterMs: -0 };
  const textPresentation = { kind: 'text', minLength: -0 };

  it('an error event with retryAfterMs -0 is refused by ErrorEventSchema and by parseChatEnvelope alike', () => {
    expect(z.safeParse(core.ErrorEventSchema, errorEvent).success).toBe(false);
    expect(z.safeParse(core.ErrorEventSchema, { ...errorEvent, retryAfterMs: 0 }).success).toBe(true);
    const text = JSON.stringify(envelopeOf({ ...errorEvent, retryAfterMs: 0 } as never)).replace('"retryAfterMs":0', '"retryAfterMs":-0');
    expect(core.parseChatEnvelope(text)).toMatchObject({ ok: false, code: 'invalid-event', issues: [{ path: ['event', 'retryAfterMs'] }] });
  });

  it("a text card's minLength -0 is refused by CardPresentationV1Schema, as the validator refuses it", () => {
    expect(z.safeParse(core.CardPresentationV1Schema, textPresentation).success).toBe(false);
    expect(z.safeParse(core.CardPresentationV1Schema, { ...textPresentation, minLength: 0 }).success).toBe(true);
  });
});

describe('the shared hostile-input check itself (issue 12)', () => {
  it('reports a property added to Object.prototype, and nothing once it is gone', () => {
    const before = snapshotPrototypes();
    Object.defineProperty(Object.prototype, 'polluted', { value: true, configurable: true });
    expect(prototypeChanges(before)).toEqual(['added Object.prototype.polluted']);
    delete (Object.prototype as { polluted?: unknown }).polluted;
    expect(prototypeChanges(before)).toEqual([]);
  });
});
