/**
 * The README check every package runs: its quick start is
 * `examples/quick-start.mjs`, shown verbatim, and running it prints exactly the
 * block under "It prints:". So the first code a user copies always works.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Declares the README quick-start tests of the package whose root is `packageRoot`. */
export function describeReadmeQuickStart(packageRoot: URL): void {
  const readme = readFileSync(new URL('README.md', packageRoot), 'utf8');
  const script = new URL('examples/quick-start.mjs', packageRoot);
  const example = readFileSync(script, 'utf8');

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
      await import(/* @vite-ignore */ script.href);
      const printed = /It prints:\n\n```text\n([^`]*)```/.exec(readme)?.[1];
      expect(`${lines.join('\n')}\n`).toBe(printed);
    });
  });
}
