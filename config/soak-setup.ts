/**
 * The setup file of `pnpm soak` (vitest `--mode soak`): properties that leave
 * `numRuns` to fast-check's default of 100 run the soak multiple of it, as the
 * ones with an explicit count do through `runs` (issue 14).
 */
import fc from 'fast-check';
import { runs } from '../test-support/property-runs.js';

const FAST_CHECK_DEFAULT_RUNS = 100;

fc.configureGlobal({ ...fc.readConfigureGlobal(), numRuns: runs(FAST_CHECK_DEFAULT_RUNS) });
