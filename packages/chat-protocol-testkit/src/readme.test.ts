import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const example = readFileSync(new URL('../examples/quick-start.mjs', import.meta.url), 'utf8');

describe('the README quick start', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows examples/quick-start.mjs verbatim', () => {
    expect(readme).toContain(`\`\`\`js\n${example}\`\`\``);
  });

  it('runs and prints what the README says', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
    const script = new URL('../examples/quick-start.mjs', import.meta.url).href;
    await import(/* @vite-ignore */ script);
    const printed = /It prints:\n\n```text\n([^`]*)```/.exec(readme)?.[1];
    expect(`${lines.join('\n')}\n`).toBe(printed);
  });
});
