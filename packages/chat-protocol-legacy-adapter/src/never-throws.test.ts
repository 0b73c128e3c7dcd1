/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): every exported function
 * of the legacy adapter is either never-throwing (a typed refusal for any
 * argument, the options included) or documented as throwing `TypeError` only
 * (`defineLegacyDialect` on a bad definition, `createChatFrameDecoder` on bad
 * options). A host callback that throws (`identify`, `callId`) is the host's
 * exception, passed on, and is not exercised here.
 */
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import {
  anyArguments,
  describeHostileContract,
  type FunctionClassification,
  type HostileTarget,
} from '../../../test-support/never-throws.js';
import * as legacy from './index.js';

const deltaFrame = { event: 'delta', data: JSON.stringify({ text: 'Hello' }), id: 'turn_1:1' };
const identity = { conversationId: 'conv_1', turnId: 'turn_1', eventId: 'evt_1', seq: 1, occurredAt: '2026-11-30T09:00:00Z' };
const envelope = { schemaVersion: 1, ...identity, event: { type: 'delta', text: 'Hello' } };
const decoderContext = {
  conversationId: 'conv_1',
  turnId: 'turn_1',
  identify: ({ seq }: { readonly seq: number }) => ({ eventId: `legacy_${seq}`, occurredAt: '2026-11-30T09:00:00Z' }),
};
const definition = {
  name: 'tiny',
  types: { ping: { transport: 'heartbeat' }, delta: { v1: 'delta', fields: { text: { kind: 'text', v1: 'text' } } } },
};
const decoder = legacy.createChatFrameDecoder({ dialect: legacy.papercup, context: decoderContext });

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  decodeLegacyChatFrame: {
    call: anyArguments(legacy.decodeLegacyChatFrame),
    valid: [deltaFrame, { dialect: legacy.papercup }],
    returns: 'result',
  },
  upgradeLegacyChatFrame: {
    call: anyArguments(legacy.upgradeLegacyChatFrame),
    valid: [deltaFrame, { ...identity, dialect: legacy.papercup }],
    returns: 'result',
  },
  encodeLegacyChatFrame: {
    call: anyArguments(legacy.encodeLegacyChatFrame),
    valid: [envelope, { dialect: legacy.scout }],
    returns: 'result',
  },
  encodeLegacyControlFrame: {
    call: anyArguments(legacy.encodeLegacyControlFrame),
    valid: [{ kind: 'heartbeat', tsMs: 1 }],
    returns: 'result',
  },
  parseLegacyLastEventId: { call: anyArguments(legacy.parseLegacyLastEventId), valid: ['7'], returns: 'value' },
  upgradeLegacyChatTurn: {
    call: anyArguments(legacy.upgradeLegacyChatTurn),
    valid: [{ id: 'msg_1', role: 'user', text: 'Hi', createdAt: 1_796_029_200_000, source: 'text_typed' }, {}],
    returns: 'result',
  },
  'createChatFrameDecoder().decode': { call: anyArguments(decoder.decode), valid: [deltaFrame], returns: 'result' },
  'createChatFrameDecoder().counts': { call: anyArguments(decoder.counts), valid: [undefined], returns: 'value' },
};

const throwing: FunctionClassification['throwing'] = {
  defineLegacyDialect: { call: anyArguments(legacy.defineLegacyDialect), valid: [definition] },
  createChatFrameDecoder: {
    call: anyArguments(legacy.createChatFrameDecoder),
    valid: [{ dialect: legacy.papercup, context: decoderContext }],
  },
};

describeHostileContract('legacy adapter', legacy, {
  neverThrowing,
  throwing,
});

const invalidOptions = {
  ok: false,
  code: 'invalid-options',
  message: 'options: expected { dialect } with a dialect made by defineLegacyDialect',
};

describe('legacy adapter: exact outcomes of the hostile inputs issue 12 found', () => {
  it('decodeLegacyChatFrame refuses missing or unreadable options as invalid-options (§2.1)', () => {
    expect(legacy.decodeLegacyChatFrame(deltaFrame, null as never)).toEqual(invalidOptions);
    expect(legacy.decodeLegacyChatFrame(deltaFrame, everyTrapThrows as never)).toEqual(invalidOptions);
    expect(legacy.decodeLegacyChatFrame(deltaFrame, { dialect: everyTrapThrows } as never)).toEqual(invalidOptions);
  });

  it('upgradeLegacyChatFrame refuses a context it cannot read, or whose callId is not a function, as invalid-options (§2.1)', () => {
    expect(legacy.upgradeLegacyChatFrame(deltaFrame, undefined as never)).toEqual(invalidOptions);
    const getter = Object.defineProperty({ ...identity, dialect: legacy.papercup }, 'turnId', { get: throwHostile, enumerable: true });
    expect(legacy.upgradeLegacyChatFrame(deltaFrame, getter)).toEqual(invalidOptions);
    expect(legacy.upgradeLegacyChatFrame(deltaFrame, { ...identity, dialect: legacy.papercup, callId: 'call_1' } as never)).toEqual(
      invalidOptions,
    );
    expect(legacy.upgradeLegacyChatFrame(deltaFrame, { ...identity, dialect: legacy.papercup })).toMatchObject({
      ok: true,
      kind: 'envelope',
    });
  });

  it('an upgrade context with seq -0 is refused by the strict encoder, never written as seq 0 (issue 12)', () => {
    expect(legacy.upgradeLegacyChatFrame(deltaFrame, { ...identity, seq: -0, dialect: legacy.papercup })).toMatchObject({
      ok: false,
      code: 'invalid-envelope',
    });
  });

  it('encodeLegacyChatFrame refuses missing or unreadable options as invalid-options (§2.1)', () => {
    expect(legacy.encodeLegacyChatFrame(envelope, null as never)).toEqual(invalidOptions);
    expect(legacy.encodeLegacyChatFrame(envelope, everyTrapThrows as never)).toEqual(invalidOptions);
  });

  it('createChatFrameDecoder throws TypeError on options it cannot read or use, and reads the context once (§2.1)', () => {
    const problem = new TypeError(
      'createChatFrameDecoder needs { dialect: a dialect made by defineLegacyDialect, context: { conversationId, turnId, identify, callId?, products? } }',
    );
    expect(() => legacy.createChatFrameDecoder(everyTrapThrows as never)).toThrow(problem);
    expect(() => legacy.createChatFrameDecoder({ dialect: legacy.papercup, context: everyTrapThrows } as never)).toThrow(problem);
    expect(() =>
      legacy.createChatFrameDecoder({ dialect: legacy.papercup, context: { conversationId: 'conv_1', turnId: 'turn_1' } } as never),
    ).toThrow(problem);
    const context = {
      conversationId: 'conv_1',
      turnId: 'turn_1',
      prefix: 'host',
      identify(this: { readonly prefix: string }, { seq }: { readonly seq: number }) {
        return { eventId: `${this.prefix}_${seq}`, occurredAt: '2026-11-30T09:00:00Z' };
      },
    };
    const reader = legacy.createChatFrameDecoder({ dialect: legacy.papercup, context });
    context.turnId = 'turn_2';
    expect(reader.decode(deltaFrame)).toMatchObject({ ok: true, envelope: { turnId: 'turn_1', eventId: 'host_1', seq: 1 } });
  });

  it('defineLegacyDialect throws TypeError, not the trap’s error, for a definition it cannot read (§2.1)', () => {
    expect(() => legacy.defineLegacyDialect(everyTrapThrows as never)).toThrow(
      new TypeError('defineLegacyDialect: the definition cannot be read (a getter or a Proxy trap threw)'),
    );
  });
});
