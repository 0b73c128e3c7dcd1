import { createAiSdkChatAgent } from '@papercusp/chat-protocol-ai-sdk/agent';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

// A real app passes a provider's model: `import { openai } from '@ai-sdk/openai'`, then `model: openai('gpt-5')`.
const chunks = [
  { type: 'text-start', id: 't1' },
  { type: 'text-delta', id: 't1', delta: 'Hello! ' },
  { type: 'text-delta', id: 't1', delta: 'How can I help?' },
  { type: 'text-end', id: 't1' },
  { type: 'finish', finishReason: { unified: 'stop' }, usage: { inputTokens: { total: 9 }, outputTokens: { total: 4 } } },
];
const model = new MockLanguageModelV3({ doStream: { stream: simulateReadableStream({ chunks, chunkDelayInMs: null }) } });
const agent = createAiSdkChatAgent({ model, system: 'You are a friendly assistant.' });

// The host runs `agent` (`createChatHost({ store, agent, authenticate })`); here one turn is driven by hand.
const context = { caller: null, userInput: { text: 'Hi' }, history: [], historyOmitted: 0, signal: new AbortController().signal };
const run = agent.run({ conversationId: 'conv_1', turnId: 'turn_1', text: 'Hi' }, context);
for (let next = await run.next(); ; next = await run.next()) {
  console.log(JSON.stringify(next.value));
  if (next.done) break;
}
