import type { ChatResultBlock, ChatUsage, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createChatHost,
  createScriptedChatAgent,
  type ChatAgent,
  type ChatAgentCard,
  type ChatAgentCompletion,
  type ChatAgentFeedback,
  type ChatAgentStep,
  type ChatAgentToolOutcome,
  type ChatHostCaller,
  type ChatHostStore,
  type ConversationStateAnswer,
  type ChatStreamFormat,
} from './index.js';
import type { ChatStateV1 } from '@papercusp/chat-protocol-core';
import type { PostgresChatStore } from '@papercusp/chat-protocol-postgres';

describe('the public types of @papercusp/chat-protocol-host', () => {
  it('what createPostgresChatStore returns is a ChatHostStore, readConversationLog included', () => {
    expectTypeOf<PostgresChatStore<unknown, ChatHostCaller>>().toMatchTypeOf<ChatHostStore>();
  });

  it('the GET /state body is { state, running: [{ turnId, cursor }], pruned: [{ turnId, lastSeq }] }', () => {
    expectTypeOf<ConversationStateAnswer['state']>().toEqualTypeOf<ChatStateV1>();
    expectTypeOf<ConversationStateAnswer['running'][number]>().toEqualTypeOf<{ readonly turnId: string; readonly cursor: string }>();
    expectTypeOf<ConversationStateAnswer['pruned'][number]>().toEqualTypeOf<{ readonly turnId: string; readonly lastSeq: number }>();
  });

  it('createChatHost returns a web-standard handler', () => {
    expectTypeOf(createChatHost).returns.toEqualTypeOf<(request: Request) => Promise<Response>>();
  });

  it('a ChatAgentStep discriminates on type, and a tool carries its execute', () => {
    expectTypeOf<Extract<ChatAgentStep, { type: 'tool' }>['execute']>().returns.resolves.toEqualTypeOf<ChatAgentToolOutcome>();
    expectTypeOf<ChatAgentToolOutcome>().toEqualTypeOf<{ readonly summary: string; readonly blocks?: readonly ChatResultBlock[] }>();
    expectTypeOf<ChatAgentStep['type']>().toEqualTypeOf<
      'delta' | 'reasoning' | 'tool' | 'card' | 'fail' | 'provenance' | 'state' | 'navigate'
    >();
  });

  it('an agent may return its completion (stopReason, usage) for done', () => {
    expectTypeOf<ReturnType<ChatAgent['run']>>().toEqualTypeOf<
      AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>
    >();
    expectTypeOf<ChatAgentCompletion>().toEqualTypeOf<{ readonly stopReason?: string; readonly usage?: ChatUsage }>();
  });

  it('an agent card has no correlationId or createdAt: the host allocates both', () => {
    expectTypeOf<ChatAgentCard>().not.toHaveProperty('correlationId');
    expectTypeOf<ChatAgentCard>().not.toHaveProperty('createdAt');
    expectTypeOf<ChatAgentCard>().toMatchTypeOf<Partial<OpenCardSnapshotV1>>();
  });

  it('the scripted agent is a ChatAgent, and a caller carries interaction authority', () => {
    expectTypeOf(createScriptedChatAgent()).toEqualTypeOf<ChatAgent>();
    expectTypeOf<ChatHostCaller>().toHaveProperty('tenantId').toEqualTypeOf<string>();
  });

  it('the events route formats are v1, AG-UI and the AI SDK UI message stream', () => {
    expectTypeOf<ChatStreamFormat>().toEqualTypeOf<'v1' | 'ag-ui' | 'ai-sdk'>();
  });
});
