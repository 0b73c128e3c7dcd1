/**
 * @papercusp/chat-protocol/legacy: `@papercusp/chat-protocol-legacy-adapter`,
 * unchanged (the subpath keeps the short name existing imports use). The facade
 * owns no code; `entries.test.ts` pins that this entry exposes exactly that
 * package's runtime names, as the same values.
 */
export * from '@papercusp/chat-protocol-legacy-adapter';
