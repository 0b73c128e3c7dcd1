/**
 * The reporter `pnpm test` and `pnpm soak` use (under turbo, one package a
 * task): a passing package is one line, a failing one is vitest's own report
 * of what failed, in full. It owns how much a run prints, not what a test
 * asserts; running vitest directly in a package keeps vitest's full listing.
 */
import { MinimalReporter, type TestModule, type TestRunEndReason, type Vitest } from 'vitest/node';

type SerializedError = Parameters<MinimalReporter['onTestRunEnd']>[1][number];

/** One line for a passing run; vitest's minimal report (failures in full, then its summary) otherwise. */
export class SummaryReporter extends MinimalReporter {
  constructor() {
    // Console output of passing tests stays visible: the soak's chaos run prints the seed that replays it.
    super({ silent: false });
  }

  // Without the banner: turbo already names the package on every line.
  override onInit(vitest: Vitest): void {
    const { printBanner } = vitest.logger;
    vitest.logger.printBanner = () => undefined;
    super.onInit(vitest);
    vitest.logger.printBanner = printBanner;
  }

  override onTestRunEnd(testModules: readonly TestModule[], unhandledErrors: readonly SerializedError[], reason: TestRunEndReason): void {
    const tests = testModules.flatMap((testModule) => [...testModule.children.allTests()]);
    const failed = tests.filter((test) => test.result().state === 'failed').length;
    const passed =
      reason === 'passed' && unhandledErrors.length === 0 && failed === 0 && testModules.every((testModule) => testModule.ok());
    if (!passed || testModules.length === 0) {
      super.onTestRunEnd(testModules, unhandledErrors, reason);
      return;
    }
    const skipped = tests.filter((test) => test.result().state === 'skipped').length;
    const seconds = (performance.now() - this.start) / 1000;
    const counts = `${tests.length - skipped} passed${skipped > 0 ? `, ${skipped} skipped` : ''}`;
    this.log(`✓ ${counts} in ${testModules.length} files (${seconds.toFixed(1)} s)`);
  }
}

/** The reporters of a package's suite: one line a passing package under turbo (`pnpm test`, `pnpm soak`), vitest's full listing when run by hand. */
export function packageReporters(): ['default'] | [SummaryReporter] {
  return process.env['TURBO_HASH'] === undefined ? ['default'] : [new SummaryReporter()];
}
