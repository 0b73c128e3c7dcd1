/**
 * `--agent <path>` (issue 26, "The command and the docs"): real modules written
 * to a temporary folder and imported as the command imports them. Each way a
 * module can fail is one `invalid-agent-module` refusal naming the path.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadHostAgent } from './load-host-agent.js';

const folder = mkdtempSync(join(tmpdir(), 'chat-protocol-agent-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const OPTIONS = { toolDelayMs: 7, cardPollMs: 300 };

/** Writes `source` as `<name>.mjs` in the folder and loads it by its relative path. */
function load(name: string, source: string) {
  writeFileSync(join(folder, `${name}.mjs`), source);
  return loadHostAgent(`./${name}.mjs`, OPTIONS, folder);
}

const AGENT = `{ tools: [], async *run() { yield { type: 'delta', text: 'hi' }; } }`;

describe('loadHostAgent (issue 26: chat-protocol-host --agent ./agent.mjs)', () => {
  it('takes a default export that is an agent as it is', async () => {
    const loaded = await load('plain', `export default ${AGENT};`);
    expect(loaded.ok && typeof loaded.value.run).toBe('function');
  });

  it("calls a default export that is a function once, with the command's agent options, and takes what it returns or resolves to", async () => {
    const loaded = await load(
      'factory',
      `export default async (options) => ({ options, frozen: Object.isFrozen(options), async *run() {} });`,
    );
    expect(loaded.ok && loaded.value).toMatchObject({ options: OPTIONS, frozen: true });
  });

  it.each([
    ['missing', null, /^--agent \.\/missing\.mjs: could not be loaded: Cannot find module .+missing\.mjs/],
    ['throws', `throw new Error('no API key\\nsecond line');`, /^--agent \.\/throws\.mjs: could not be loaded: no API key$/],
    ['syntax', `export default {`, /^--agent \.\/syntax\.mjs: could not be loaded: .+/],
    ['named', `export const agent = ${AGENT};`, /^--agent \.\/named\.mjs: has no default export \(export default your agent\)$/],
    ['text', `export default 'agent';`, /^--agent \.\/text\.mjs: its default export is not a ChatAgent \(an object with a run function\)$/],
    [
      'factory-throws',
      `export default () => { throw new Error('bad config'); };`,
      /^--agent \.\/factory-throws\.mjs: its factory threw: bad config$/,
    ],
    [
      'factory-rejects',
      `export default async () => { throw new TypeError('no model'); };`,
      /^--agent \.\/factory-rejects\.mjs: its factory threw: no model$/,
    ],
    [
      'factory-null',
      `export default () => null;`,
      /^--agent \.\/factory-null\.mjs: what its factory returned is not a ChatAgent \(an object with a run function\)$/,
    ],
    [
      'tools-object',
      `export default { tools: {}, run() {} };`,
      /^--agent \.\/tools-object\.mjs: its default export has tools that are not a list$/,
    ],
    [
      'tools-unnamed',
      `export default { tools: [{ name: 'a', execute() {} }, { execute() {} }], run() {} };`,
      /^--agent \.\/tools-unnamed\.mjs: its default export has tools\[1\] without a name and an execute function$/,
    ],
  ])('%s: an invalid-agent-module refusal whose message says which problem', async (name, source, message) => {
    const loaded = source === null ? await loadHostAgent(`./${name}.mjs`, OPTIONS, folder) : await load(name, source);
    expect(loaded).toEqual({ ok: false, code: 'invalid-agent-module', message: expect.stringMatching(message) as string });
  });
});
