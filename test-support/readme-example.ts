/**
 * The README check every package runs: its quick start is
 * `examples/quick-start.mjs`, shown verbatim, and running it prints exactly the
 * first `text` block after it (the one under "It prints:"). So the first code a
 * user copies always works. A package with more runnable examples checks each
 * the same way by name.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** Declares the README tests of `examples/<example>.mjs` in the package whose root is `packageRoot`. */
export function describeReadmeExample(packageRoot: URL, example = 'quick-start'): void {
  const readme = readFileSync(new URL('README.md', packageRoot), 'utf8');
  const script = new URL(`examples/${example}.mjs`, packageRoot);
  const code = `\`\`\`js\n${readFileSync(script, 'utf8')}\`\`\``;

  describe(`the README example ${example}`, () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    it(`shows examples/${example}.mjs verbatim`, () => {
      expect(readme).toContain(code);
    });

    it('runs and prints what the README says', async () => {
      const lines: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((line: string) => lines.push(line));
      await import(/* @vite-ignore */ script.href);
      const after = readme.slice(readme.indexOf(code) + code.length);
      const printed = /```text\n([^`]*)```/.exec(after)?.[1];
      expect(`${lines.join('\n')}\n`).toBe(printed);
    });
  });
}
