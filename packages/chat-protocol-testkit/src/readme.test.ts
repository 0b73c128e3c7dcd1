import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeReadmeExample } from '../../../test-support/readme-example.js';
import { main } from './cli.js';

describeReadmeExample(new URL('..', import.meta.url));
describeReadmeExample(new URL('..', import.meta.url), 'golden-replay');
describeReadmeExample(new URL('..', import.meta.url), 'race-test');
describeReadmeExample(new URL('..', import.meta.url), 'event-log');

describe('the README on chat-protocol verify', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

  it('shows what the command prints for the sample bad capture', async () => {
    const shown = /```text\n\$ chat-protocol verify captures\/violations\.sse\n([\s\S]*?)^```$/m.exec(readme)?.[1];
    const path = fileURLToPath(new URL('../captures/violations.sse', import.meta.url));
    let stdout = '';
    const code = await main(['verify', path], {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stdout += text),
      stdin: async function* () {},
    });
    expect(code).toBe(1);
    expect(stdout.replace(path, 'captures/violations.sse')).toBe(shown);
  });

  it('lists every option the usage lists', async () => {
    let usage = '';
    await main(['--help'], { stdout: (text) => (usage += text), stderr: () => undefined, stdin: async function* () {} });
    const options = usage.split('\n').filter((line) => line.startsWith('  --'));
    expect(options).toHaveLength(6);
    for (const option of options) expect(readme).toContain(option);
  });
});
