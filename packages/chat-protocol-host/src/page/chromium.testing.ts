/**
 * Test support for the browser page's tests: finds Debian's `chromium` (or the
 * binary `CHROMIUM_PATH` names) and launches it headless through
 * `playwright-core`, which downloads no browser of its own. `.ci/run`
 * installs `chromium` when it is missing. Not part of the package's build.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

// The Chromium binary: `CHROMIUM_PATH`, else `chromium` or `chromium-browser` on `PATH`. Throws when there is none.
function findChromium(): string {
  const explicit = process.env['CHROMIUM_PATH'];
  if (explicit !== undefined && explicit !== '') return explicit;
  for (const directory of (process.env['PATH'] ?? '').split(delimiter)) {
    for (const name of ['chromium', 'chromium-browser']) {
      const candidate = join(directory, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  throw new Error('no chromium on PATH: install it (apt-get install -y chromium, as .ci/run does) or set CHROMIUM_PATH');
}

/** Launches headless Chromium; the caller closes it. `--no-sandbox`: CI runs as root, where Chromium's sandbox cannot start. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: findChromium(), headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}
