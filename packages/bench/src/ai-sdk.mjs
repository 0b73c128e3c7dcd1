/**
 * Bundle size of the AI SDK interop (issue 18): the encoder alone, as a
 * host or browser that serves `useChat` ships it, and the decoder alone,
 * zod bundled in wherever they reach it. Not yet wired into `run.mjs`.
 */
import { measureBundle } from './bundle-size.mjs';

// Read from the package's build until bench lists it as a dependency; then
// the specifier becomes '@papercusp/chat-protocol-ai-sdk'.
const AI_SDK_ENTRY = '../chat-protocol-ai-sdk/dist/index.js';

/** `{ encoder, decoder }`, each `{ minifiedBytes, gzippedBytes, zodMinifiedBytes }` (see `measureBundle`). */
export async function measureAiSdkBundles() {
  return {
    encoder: await measureBundle(`export { createAiSdkEncoder, encodeAiSdkSseFrame } from '${AI_SDK_ENTRY}';`),
    decoder: await measureBundle(`export { createAiSdkDecoder } from '${AI_SDK_ENTRY}';`),
  };
}
