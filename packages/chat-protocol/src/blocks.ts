/**
 * @papercusp/chat-protocol/blocks: `@papercusp/chat-protocol-blocks`, unchanged.
 * The facade owns no code; `entries.test.ts` pins that this entry exposes
 * exactly that package's runtime names, as the same values.
 */
export * from '@papercusp/chat-protocol-blocks';
