/**
 * @papercusp/chat-protocol-ai-sdk/agent: any AI SDK language model as the reference host's agent (DESIGN §12.1).
 * Its own entry because it imports `ai` (an optional peer): the root entry, the encoder and the decoder, never does.
 * Every export is listed by name; `agent.test.ts` pins the list. The seam's types (`ChatAgent`, `ChatAgentStep`, …)
 * are core's.
 */
export { createAiSdkChatAgent } from './agent/create-ai-sdk-chat-agent.js';
export type { AiSdkChatAgent, AiSdkChatAgentFailCode, AiSdkChatAgentOptions } from './agent/agent-types.js';
