import type { ChatHistoryTurnV1, ChatResultBlock, ChatUsage, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { jsonSchema, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createAiSdkChatAgent,
  type AiSdkChatAgent,
  type AiSdkChatAgentCompletion,
  type AiSdkChatAgentContext,
  type AiSdkChatAgentFeedback,
  type AiSdkChatAgentStep,
  type AiSdkChatAgentTool,
  type AiSdkChatAgentToolOutcome,
  type AiSdkChatAgentTurn,
} from '../agent.js';

// The agent seam v2 as the host declares it (issue 26's SEAM.md), verbatim but for the caller, which the host types
// `ChatHostCaller` and an adapter `unknown`. The host's own type test pins the assignment to its `ChatAgent`.
type ChatHostCaller = unknown;
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

const weather = tool({ inputSchema: jsonSchema<{ city: string }>({ type: 'object' }), execute: async () => 'sunny' });

describe('createAiSdkChatAgent types: the agent seam v2', () => {
  it('declares each seam shape exactly', () => {
    expectTypeOf<AiSdkChatAgentTurn>().toEqualTypeOf<ChatAgentTurn>();
    expectTypeOf<AiSdkChatAgentContext>().toEqualTypeOf<ChatAgentContext>();
    expectTypeOf<AiSdkChatAgentTool>().toEqualTypeOf<ChatAgentTool>();
    expectTypeOf<AiSdkChatAgentToolOutcome>().toEqualTypeOf<ChatAgentToolOutcome>();
    expectTypeOf<AiSdkChatAgentCompletion>().toEqualTypeOf<ChatAgentCompletion>();
    expectTypeOf<AiSdkChatAgentStep>().toEqualTypeOf<ChatAgentStep>();
    expectTypeOf<AiSdkChatAgentFeedback>().toEqualTypeOf<ChatAgentFeedback>();
  });

  it('makes an agent assignable to the seam’s ChatAgent, whose tools are always listed', () => {
    const agent = createAiSdkChatAgent({ model: new MockLanguageModelV3(), tools: { weather } });
    expectTypeOf(agent).toEqualTypeOf<AiSdkChatAgent>();
    expectTypeOf(agent).toExtend<ChatAgent>();
    expectTypeOf(agent.tools).toEqualTypeOf<readonly AiSdkChatAgentTool[]>();
  });

  it('accepts a gateway model id and names read-only tools only among the tools given', () => {
    createAiSdkChatAgent({ model: 'openai/gpt-5', tools: { weather }, readOnlyTools: ['weather'] });
    // @ts-expect-error: `wether` is not one of the tools
    createAiSdkChatAgent({ model: 'openai/gpt-5', tools: { weather }, readOnlyTools: ['wether'] });
  });
});
