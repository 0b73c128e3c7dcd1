import type { ChatAgent, ChatAgentTool } from '@papercusp/chat-protocol-core';
import { jsonSchema, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expectTypeOf, it } from 'vitest';
import { createAiSdkChatAgent, type AiSdkChatAgent } from '../agent.js';

// The seam is core's (DESIGN §11.1), the caller unknown; the host's own type test pins the assignment to its
// `ChatAgent`, which binds the caller to `ChatHostCaller`.

const weather = tool({ inputSchema: jsonSchema<{ city: string }>({ type: 'object' }), execute: async () => 'sunny' });

describe('createAiSdkChatAgent types: the agent seam v2', () => {
  it('makes an agent assignable to the seam’s ChatAgent, whose tools are always listed', () => {
    const agent = createAiSdkChatAgent({ model: new MockLanguageModelV3(), tools: { weather } });
    expectTypeOf(agent).toEqualTypeOf<AiSdkChatAgent>();
    expectTypeOf(agent).toExtend<ChatAgent>();
    expectTypeOf(agent.tools).toEqualTypeOf<readonly ChatAgentTool[]>();
  });

  it('accepts a gateway model id and names read-only tools only among the tools given', () => {
    createAiSdkChatAgent({ model: 'openai/gpt-5', tools: { weather }, readOnlyTools: ['weather'] });
    // @ts-expect-error: `wether` is not one of the tools
    createAiSdkChatAgent({ model: 'openai/gpt-5', tools: { weather }, readOnlyTools: ['wether'] });
  });
});
