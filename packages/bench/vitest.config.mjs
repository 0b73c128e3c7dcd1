// The bench's own checks (bundle structure) run under `pnpm test` like every package's suite: one line when they pass.
import { defineConfig } from 'vitest/config';
import { packageReporters } from '../../config/vitest-summary-reporter.ts';

export default defineConfig({
  test: { reporters: packageReporters() },
});
