/**
 * @papercusp/chat-protocol/testkit: the root of `@papercusp/chat-protocol-testkit`,
 * unchanged. The facade owns no code; `entries.test.ts` pins that this entry
 * exposes exactly that package's runtime names, as the same values.
 */
export * from '@papercusp/chat-protocol-testkit';
