/**
 * @papercusp/chat-protocol: the facade's root is `@papercusp/chat-protocol-core`,
 * unchanged. It owns no code of its own: `export *` mirrors the package whose
 * own `index.ts` lists and pins every export, and `entries.test.ts` pins that
 * this entry exposes exactly that package's runtime names, as the same values.
 */
export * from '@papercusp/chat-protocol-core';
