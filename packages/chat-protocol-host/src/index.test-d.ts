import type { ChatResultBlock, ChatUsage, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type * as openTelemetryApi from '@opentelemetry/api';
import type { Context, ContextAPI, Span, TraceAPI, Tracer } from '@opentelemetry/api';
import { describe, expectTypeOf, it } from 'vitest';
import {
  type ChatHostCloseOptions,
  type ChatHostHandler,
  type ChatHostSweepOptions,
  type ChatHostSweepResult,
  createChatHost,
  createScriptedChatAgent,
  type ChatAgent,
  type ChatAgentCard,
  type ChatAgentCompletion,
  type ChatAgentContext,
  type ChatAgentFeedback,
  type ChatAgentStep,
  type ChatAgentTool,
  type ChatAgentToolExecution,
  type ChatAgentToolOutcome,
  type ChatAgentTurn,
  type ChatHostEvent,
  type ChatHostCaller,
  type ChatHostOpenTelemetry,
  type ChatHostSpan,
  type ChatHostSpanAttributes,
  type ChatHostTraceContext,
  type ChatHostTracer,
  type ChatHostStore,
  type ConversationStateAnswer,
  type ChatStreamFormat,
} from './index.js';
import type { ChatHistoryTurnV1, ChatStateV1 } from '@papercusp/chat-protocol-core';
import type { PostgresChatStore } from '@papercusp/chat-protocol-postgres';
import type { AgUiChatAgent } from '@papercusp/chat-protocol-ag-ui';
import type { AiSdkChatAgent } from '@papercusp/chat-protocol-ai-sdk/agent';

describe('the public types of @papercusp/chat-protocol-host', () => {
  it('what createPostgresChatStore returns is a ChatHostStore, readConversationLog included', () => {
    expectTypeOf<PostgresChatStore<unknown, ChatHostCaller>>().toMatchTypeOf<ChatHostStore>();
  });

  it('the GET /state body is { state, running: [{ turnId, cursor }], pruned: [{ turnId, lastSeq }] }', () => {
    expectTypeOf<ConversationStateAnswer['state']>().toEqualTypeOf<ChatStateV1>();
    expectTypeOf<ConversationStateAnswer['running'][number]>().toEqualTypeOf<{ readonly turnId: string; readonly cursor: string }>();
    expectTypeOf<ConversationStateAnswer['pruned'][number]>().toEqualTypeOf<{ readonly turnId: string; readonly lastSeq: number }>();
  });

  it('createChatHost returns a web-standard handler with its drain (DESIGN §11, §11.2)', () => {
    expectTypeOf(createChatHost).returns.toEqualTypeOf<ChatHostHandler>();
    expectTypeOf<ChatHostHandler>().toMatchTypeOf<(request: Request) => Promise<Response>>();
    expectTypeOf<ChatHostHandler['close']>().toEqualTypeOf<(options?: ChatHostCloseOptions) => Promise<void>>();
    expectTypeOf<ChatHostCloseOptions>().toEqualTypeOf<{ readonly drainMs?: number }>();
    expectTypeOf<ChatHostHandler['sweepExpiredTurns']>().toEqualTypeOf<(options: ChatHostSweepOptions) => Promise<ChatHostSweepResult>>();
  });

  it('a ChatAgentStep discriminates on type; a tool step names a declared tool, a remote-tool carries its outcome (issue 26)', () => {
    expectTypeOf<Extract<ChatAgentStep, { type: 'tool' }>>().toEqualTypeOf<{
      readonly type: 'tool';
      readonly name: string;
      readonly input?: unknown;
      readonly callId?: string;
    }>();
    expectTypeOf<Extract<ChatAgentStep, { type: 'remote-tool' }>['outcome']>().toEqualTypeOf<ChatAgentToolOutcome>();
    expectTypeOf<ChatAgentToolOutcome>().toEqualTypeOf<{
      readonly status?: 'succeeded' | 'failed';
      readonly summary: string;
      readonly blocks?: readonly ChatResultBlock[];
    }>();
    expectTypeOf<ChatAgentStep['type']>().toEqualTypeOf<
      'delta' | 'reasoning' | 'tool' | 'remote-tool' | 'card' | 'fail' | 'provenance' | 'state' | 'navigate'
    >();
  });

  it('an agent declares its tools (optional) and runs with a context: caller, input, bounded history, signal (issue 26)', () => {
    expectTypeOf<ChatAgent['tools']>().toEqualTypeOf<readonly ChatAgentTool[] | undefined>();
    expectTypeOf<Parameters<ChatAgent['run']>>().toEqualTypeOf<[turn: ChatAgentTurn, context: ChatAgentContext]>();
    expectTypeOf<ChatAgentContext>().toEqualTypeOf<{
      readonly caller: ChatHostCaller;
      readonly userInput: { readonly text: string };
      readonly history: readonly ChatHistoryTurnV1[];
      readonly historyOmitted: number;
      readonly signal: AbortSignal;
    }>();
    expectTypeOf<ChatAgentTool['execute']>().toEqualTypeOf<
      (input: unknown, execution: ChatAgentToolExecution) => Promise<ChatAgentToolOutcome>
    >();
    expectTypeOf<ChatAgentToolExecution>().toEqualTypeOf<{
      readonly signal: AbortSignal;
      readonly turn: ChatAgentTurn;
      readonly callId: string;
      readonly effectId: string;
    }>();
    expectTypeOf<ChatAgentTool['externalEffect']>().toEqualTypeOf<boolean | undefined>();
    // An agent with only `run` is valid; `effects(turn)` is gone.
    expectTypeOf<{ run: ChatAgent['run'] }>().toExtend<ChatAgent>();
    expectTypeOf<ChatAgent>().not.toHaveProperty('effects');
  });

  it("the adapters' agents are host agents: what createAiSdkChatAgent and createAgUiChatAgent return is a ChatAgent (SEAM.md)", () => {
    expectTypeOf<AiSdkChatAgent>().toExtend<ChatAgent>();
    expectTypeOf<AgUiChatAgent>().toExtend<ChatAgent>();
  });

  it('the feedback of a call names its callId and may say cancelled or needs-reconciliation', () => {
    expectTypeOf<Extract<ChatAgentFeedback, { type: 'tool-result' }>['callId']>().toEqualTypeOf<string>();
    expectTypeOf<Extract<ChatAgentFeedback, { type: 'tool-result' }>['status']>().toEqualTypeOf<
      'succeeded' | 'failed' | 'cancelled' | 'needs-reconciliation'
    >();
  });

  it('onEvent gets typed host events, discriminated on type; none carries text (issue 26)', () => {
    expectTypeOf<ChatHostEvent['type']>().toEqualTypeOf<
      'turn-started' | 'turn-ended' | 'tool-launched' | 'tool-ended' | 'card-asked' | 'card-answered' | 'agent-error' | 'store-unavailable'
    >();
    expectTypeOf<Extract<ChatHostEvent, { type: 'turn-ended' }>['durationMs']>().toEqualTypeOf<number>();
    expectTypeOf<Extract<ChatHostEvent, { type: 'agent-error' }>['error']>().toEqualTypeOf<unknown>();
    expectTypeOf<ChatHostEvent>().not.toHaveProperty('text');
    expectTypeOf<NonNullable<Parameters<typeof createChatHost>[0]['onEvent']>>().parameter(0).toEqualTypeOf<ChatHostEvent>();
  });

  it('openTelemetry takes @opentelemetry/api itself: its namespace, its trace and context, and a Tracer of any provider fit (issue 26)', () => {
    expectTypeOf<NonNullable<Parameters<typeof createChatHost>[0]['openTelemetry']>>().toEqualTypeOf<ChatHostOpenTelemetry>();
    expectTypeOf<typeof openTelemetryApi>().toExtend<ChatHostOpenTelemetry>();
    expectTypeOf<{ trace: TraceAPI; context: ContextAPI; tracer: Tracer }>().toExtend<ChatHostOpenTelemetry>();
    expectTypeOf<Tracer>().toExtend<ChatHostTracer>();
    expectTypeOf<Span>().toExtend<ChatHostSpan>();
    expectTypeOf<Context>().toExtend<ChatHostTraceContext>();
    // Attributes are ids, names, statuses and counts: no nested values, no arrays.
    expectTypeOf<ChatHostSpanAttributes[string]>().toEqualTypeOf<string | number | boolean>();
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
