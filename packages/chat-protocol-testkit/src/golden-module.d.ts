// The module config/golden-module.ts builds for vitest and tsup: each file of
// fixtures/golden by name.
declare module 'virtual:chat-protocol-golden' {
  const files: Readonly<Record<string, string>>;
  export default files;
}
