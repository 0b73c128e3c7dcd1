import { defineConfig } from 'tsup';
import shared from '../../config/tsup.js';

// The shared build with the agent's entry beside the root one: `ai` (an optional peer, external) is imported by
// `dist/agent.*` only, so the encoder and the decoder never load it.
export default defineConfig({ ...shared, entry: { index: 'src/index.ts', agent: 'src/agent.ts' } });
