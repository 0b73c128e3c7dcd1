/**
 * `createAgUiChatAgent`'s types (issue 26): it takes `@ag-ui/client`'s own agents without the package importing
 * them, and what it returns has the host's agent seam exactly (SEAM.md, copied below: this package cannot import the
 * host, which depends on it; the host's own type test pins the same against its `ChatAgent`).
 */
import { AbstractAgent, HttpAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import type { ChatHistoryTurnV1, ChatResultBlock, ChatUsage, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { EMPTY, type Observable } from 'rxjs';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createAgUiChatAgent,
  type AgUiAgentLike,
  type AgUiChatAgent,
  type AgUiChatAgentCard,
  type AgUiChatAgentCompletion,
  type AgUiChatAgentContext,
  type AgUiChatAgentFeedback,
  type AgUiChatAgentStep,
  type AgUiChatAgentToolOutcome,
  type AgUiChatAgentTurn,
} from '../index.js';

// ---- The host's seam as SEAM.md states it (issue 26), ChatHostCaller standing for the host's caller type. ----
interface ChatHostCaller {
  readonly tenantId: string;
  readonly principalId: string;
}
interface ChatAgentTurn {
  readonly conversationId: string;
  readonly turnId: string;
  readonly text: string;
}
interface ChatAgentContext {
  readonly caller: ChatHostCaller;
  readonly userInput: { readonly text: string };
  readonly history: readonly ChatHistoryTurnV1[];
  readonly historyOmitted: number;
  readonly signal: AbortSignal;
}
interface ChatAgentToolExecution {
  readonly signal: AbortSignal;
  readonly callId: string;
  readonly effectId: string;
}
interface ChatAgentToolOutcome {
  readonly status?: 'succeeded' | 'failed';
  readonly summary: string;
  readonly blocks?: readonly ChatResultBlock[];
}
interface ChatAgentTool {
  readonly name: string;
  readonly externalEffect?: boolean;
  readonly authorize?: (request: {
    readonly caller: ChatHostCaller;
    readonly turn: ChatAgentTurn;
    readonly input: unknown;
  }) => boolean | Promise<boolean>;
  readonly execute: (input: unknown, execution: ChatAgentToolExecution) => Promise<ChatAgentToolOutcome>;
}
interface ChatAgentCompletion {
  readonly stopReason?: string;
  readonly usage?: ChatUsage;
}
type ChatAgentCard = Omit<OpenCardSnapshotV1, 'correlationId' | 'createdAt'>;
type ChatAgentStep =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'tool'; readonly name: string; readonly input?: unknown; readonly callId?: string }
  | {
      readonly type: 'remote-tool';
      readonly name: string;
      readonly input?: unknown;
      readonly callId?: string;
      readonly outcome: ChatAgentToolOutcome;
    }
  | { readonly type: 'card'; readonly card: ChatAgentCard }
  | { readonly type: 'provenance'; readonly engine: string; readonly model: string; readonly accountRoute?: string | null }
  | { readonly type: 'state'; readonly snapshot: unknown }
  | { readonly type: 'navigate'; readonly href: string }
  | { readonly type: 'fail'; readonly code: string; readonly message: string; readonly retryable: boolean; readonly retryAfterMs?: number };
type ChatAgentFeedback =
  | {
      readonly type: 'tool-result';
      readonly callId: string;
      readonly status: 'succeeded' | 'failed' | 'cancelled' | 'needs-reconciliation';
      readonly summary: string;
      readonly blocks?: readonly ChatResultBlock[];
    }
  | { readonly type: 'card-closed'; readonly resolution: 'submitted' | 'declined' | 'cancelled' | 'expired'; readonly value?: unknown }
  | undefined;
interface ChatAgent {
  readonly tools?: readonly ChatAgentTool[];
  run(turn: ChatAgentTurn, context: ChatAgentContext): AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>;
}
// ---- end of the seam ----

class ScriptedAgent extends AbstractAgent {
  run(_input: RunAgentInput): Observable<BaseEvent> {
    return EMPTY;
  }
}

describe('createAgUiChatAgent types (issue 26)', () => {
  it("takes @ag-ui/client's HttpAgent and any AbstractAgent subclass as its agent", () => {
    expectTypeOf<HttpAgent>().toExtend<AgUiAgentLike>();
    expectTypeOf<ScriptedAgent>().toExtend<AgUiAgentLike>();
    expectTypeOf(createAgUiChatAgent({ agent: new HttpAgent({ url: 'http://127.0.0.1:1/' }) })).toEqualTypeOf<AgUiChatAgent>();
    expectTypeOf(createAgUiChatAgent({ agent: new ScriptedAgent() })).toEqualTypeOf<AgUiChatAgent>();
  });

  it("refuses what is not an agent: an object without clone, or a clone that cannot run (AbstractAgent's own run-less members)", () => {
    // @ts-expect-error: no clone
    createAgUiChatAgent({ agent: { run: () => EMPTY } });
    // @ts-expect-error: a clone without runAgent, abortRun, detachActiveRun
    createAgUiChatAgent({ agent: { clone: () => ({ threadId: 't' }) } });
  });

  it("mirrors the host's seam exactly: turn, context (caller unknown), steps, feedback, completion, card and tool outcome", () => {
    expectTypeOf<AgUiChatAgentTurn>().toEqualTypeOf<ChatAgentTurn>();
    expectTypeOf<Omit<AgUiChatAgentContext, 'caller'>>().toEqualTypeOf<Omit<ChatAgentContext, 'caller'>>();
    expectTypeOf<AgUiChatAgentContext['caller']>().toBeUnknown();
    expectTypeOf<AgUiChatAgentStep>().toEqualTypeOf<ChatAgentStep>();
    expectTypeOf<AgUiChatAgentFeedback>().toEqualTypeOf<ChatAgentFeedback>();
    expectTypeOf<AgUiChatAgentCompletion>().toEqualTypeOf<ChatAgentCompletion>();
    expectTypeOf<AgUiChatAgentCard>().toEqualTypeOf<ChatAgentCard>();
    expectTypeOf<AgUiChatAgentToolOutcome>().toEqualTypeOf<ChatAgentToolOutcome>();
  });

  it("an AgUiChatAgent is a ChatAgent: the host can run it with the host's context, which carries its caller", () => {
    expectTypeOf<AgUiChatAgent>().toExtend<ChatAgent>();
    const agent: ChatAgent = createAgUiChatAgent({ agent: new HttpAgent({ url: 'http://127.0.0.1:1/' }) });
    expectTypeOf(agent.run).returns.toEqualTypeOf<AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>>();
  });
});
