import type { ChatEventEnvelope, LegacyChatEvent, LegacyToolCallEvent } from '@papercusp/chat-protocol-core';
import { describe, expectTypeOf, it } from 'vitest';
import { dotted } from '../test/dotted-dialect.js';
import { scoutProducts } from '../test/scout-products.js';
import {
  createChatFrameDecoder,
  decodeLegacyChatFrame,
  defineLegacyDialect,
  encodeLegacyChatFrame,
  papercup,
  scout,
  upgradeLegacyChatFrame,
  type ChatFrameDecoderRefusalCode,
  type DecodeLegacyChatFrameRefusalCode,
  type EncodeLegacyChatFrameRefusalCode,
  type LegacyEventOf,
  type UpgradeLegacyChatFrameRefusalCode,
} from './index.js';

const CONTEXT_IDENTITY = { conversationId: 'c', turnId: 't', eventId: 'e', seq: 1, occurredAt: '2026-11-30T09:00:00Z' } as const;
type PapercupEvent = LegacyEventOf<typeof papercup.definition>;
type ScoutEvent = LegacyEventOf<typeof scout.definition>;
type DottedEvent = LegacyEventOf<typeof dotted.definition>;

describe('dialect events are typed from their definition', () => {
  it('types papercup as core’s legacy union, apart from its transport frames (issue 12: a session in every form)', () => {
    expectTypeOf<Exclude<PapercupEvent, { type: 'heartbeat' | 'resync' | 'session' }>>().toExtend<LegacyChatEvent>();
    expectTypeOf<Extract<PapercupEvent, { type: 'session' }>>().toEqualTypeOf<{
      readonly type: 'session';
      readonly sessionId?: string;
      readonly agentSessionId?: string;
    }>();
    expectTypeOf<Extract<PapercupEvent, { type: 'resync' }>>().toEqualTypeOf<{
      readonly type: 'resync';
      readonly reason?: string;
      readonly fromId?: number;
      readonly floorId?: number;
      readonly maxId?: number;
    }>();
    expectTypeOf<Extract<PapercupEvent, { type: 'tool_call' }>>().toEqualTypeOf<{
      readonly type: 'tool_call';
      readonly name: string;
      readonly input?: unknown;
      readonly callId?: string;
    }>();
    expectTypeOf<Extract<PapercupEvent, { type: 'tool_call' }>>().toExtend<LegacyToolCallEvent>();
  });

  it('types scout’s own vocabulary', () => {
    expectTypeOf<ScoutEvent['type']>().toEqualTypeOf<
      'session' | 'heartbeat' | 'resync' | 'token' | 'tool_start' | 'card' | 'card_closed' | 'state' | 'navigate' | 'error' | 'done'
    >();
    expectTypeOf<Extract<ScoutEvent, { type: 'token' }>>().toEqualTypeOf<{ readonly type: 'token'; readonly content: string }>();
    // The decoded error keeps what the frame sent; v1's bounds apply on upgrade.
    expectTypeOf<Extract<ScoutEvent, { type: 'error' }>>().toEqualTypeOf<{
      readonly type: 'error';
      readonly message: string;
      readonly code?: string;
      readonly retryable?: boolean;
      readonly retryAfterMs?: number;
    }>();
  });

  it('types a host’s dialect the same way', () => {
    expectTypeOf<Extract<DottedEvent, { type: 'tool.result' }>>().toEqualTypeOf<{
      readonly type: 'tool.result';
      readonly toolCallId?: string;
      readonly toolName: string;
      readonly success?: boolean;
    }>();
    expectTypeOf<Extract<DottedEvent, { type: 'run.finished' }>>().toEqualTypeOf<{ readonly type: 'run.finished' }>();
  });

  it('narrows a decoded frame by its type', () => {
    const result = decodeLegacyChatFrame({ data: '{}' }, { dialect: scout });
    if (result.ok && result.value.type === 'tool_start') {
      expectTypeOf(result.value.tool).toEqualTypeOf<string>();
      expectTypeOf(result.value.callId).toEqualTypeOf<string | undefined>();
    }
    if (!result.ok) expectTypeOf(result.code).toEqualTypeOf<DecodeLegacyChatFrameRefusalCode>();
  });

  it('keeps a definition’s literal types', () => {
    const mine = defineLegacyDialect({
      name: 'mine',
      typeFrom: 'event',
      types: { say: { v1: 'delta', fields: { words: { kind: 'text', v1: 'text' } } } },
    });
    expectTypeOf<LegacyEventOf<typeof mine.definition>>().toEqualTypeOf<{ readonly type: 'say'; readonly words: string }>();
  });
});

describe('results', () => {
  it('gives an envelope, a transport frame or a typed refusal on upgrade', () => {
    const result = upgradeLegacyChatFrame(
      { data: '{}' },
      { dialect: scout, conversationId: 'c', turnId: 't', eventId: 'e', seq: 1, occurredAt: '2026-11-30T09:00:00Z' },
    );
    if (result.ok && result.kind === 'envelope') expectTypeOf(result.envelope).toEqualTypeOf<ChatEventEnvelope>();
    if (result.ok && result.kind === 'transport') expectTypeOf(result.transport).toEqualTypeOf<'session' | 'heartbeat'>();
    if (!result.ok) expectTypeOf(result.code).toEqualTypeOf<UpgradeLegacyChatFrameRefusalCode>();
  });

  it('types the encoder’s and the frame decoder’s refusals', () => {
    const encoded = encodeLegacyChatFrame({}, { dialect: papercup });
    if (!encoded.ok) expectTypeOf(encoded.code).toEqualTypeOf<EncodeLegacyChatFrameRefusalCode>();
    const decoder = createChatFrameDecoder({
      dialect: papercup,
      context: { conversationId: 'c', turnId: 't', identify: () => ({ eventId: 'e', occurredAt: '2026-11-30T09:00:00Z' }) },
    });
    const decoded = decoder.decode({ data: '' });
    if (!decoded.ok) expectTypeOf(decoded.code).toEqualTypeOf<ChatFrameDecoderRefusalCode>();
    if (decoded.ok && decoded.kind === 'envelope') expectTypeOf(decoded.source).toEqualTypeOf<'v1' | 'legacy'>();
  });
});

describe('registered product events are typed through upgrade and the frame decoder (issue 13)', () => {
  it('an upgraded envelope may be one of the host’s product events, with its data type; without a registration, never', () => {
    const result = upgradeLegacyChatFrame({ data: '' }, { ...CONTEXT_IDENTITY, dialect: scout, products: scoutProducts });
    if (result.ok && result.kind === 'envelope' && result.envelope.event.type === 'scout.products') {
      expectTypeOf(result.envelope.event.data).toEqualTypeOf<{ products: Record<string, unknown>[] }>();
    }
    const plain = upgradeLegacyChatFrame({ data: '' }, { ...CONTEXT_IDENTITY, dialect: scout });
    if (plain.ok && plain.kind === 'envelope') expectTypeOf(plain.envelope).toEqualTypeOf<ChatEventEnvelope>();
    const decoder = createChatFrameDecoder({
      dialect: scout,
      context: {
        conversationId: 'c',
        turnId: 't',
        identify: () => ({ eventId: 'e', occurredAt: '2026-11-30T09:00:00Z' }),
        products: scoutProducts,
      },
    });
    const decoded = decoder.decode({ data: '' });
    if (decoded.ok && decoded.kind === 'envelope' && decoded.envelope.event.type === 'scout.broaden') {
      expectTypeOf(decoded.envelope.event.data.options).toEqualTypeOf<
        { label: string; prompt: string; resultCount?: number | undefined }[]
      >();
    }
    upgradeLegacyChatFrame(
      { data: '' },
      // @ts-expect-error: a legacy type may only map to a name the codec registered
      { ...CONTEXT_IDENTITY, dialect: scout, products: { codec: scoutProducts.codec, events: { products: 'scout.other' } } },
    );
  });
});
