/**
 * The never-throws check every package runs on its exported functions (DESIGN
 * §2.1, §2.2, §2.7; issue 12 "Hostile input"): each catalogue value in each
 * argument position, then near-valid and hostile arguments at random, with the
 * watched prototypes compared before and after. A function documented as
 * throwing is checked to throw nothing but `TypeError`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  everyHostileArgument,
  hostileArgumentsArbitrary,
  outcomeOf,
  prototypeChanges,
  snapshotPrototypes,
  syncOutcomeOf,
  type CallOutcome,
  type HostileCase,
} from './hostile-values.js';
import { runs } from './property-runs.js';

/** What a never-throwing function returns on hostile input. */
type HostileReturn =
  /** `{ ok: true, … }` or `{ ok: false, code, message }` with a kebab-case `code` (§2.2). */
  | 'result'
  /** A refusal of the §2.2 shape: hostile input is never accepted. */
  | 'refusal'
  /** `true` or `false`. */
  | 'boolean'
  /** Anything, `null` included: a tolerant parser or a value function. */
  | 'value';

/** One function under test: how to call it, one valid argument list, and what it must return. */
export interface HostileTarget {
  readonly call: (...args: unknown[]) => unknown;
  /** A valid call; each position is replaced or mutated in turn. */
  readonly valid: readonly unknown[];
  readonly returns: HostileReturn;
  /** Random cases beyond the exhaustive sweep in `pnpm test`, 150 unless told; `pnpm soak` runs its multiple of them. */
  readonly runs?: number;
  /** The function returns a promise: it must resolve, never reject. */
  readonly async?: boolean;
}

// A sync call's return value is never awaited: awaiting reads `then`, which a
// function returning its (hostile) argument unchanged would trip.
async function runTarget(target: Pick<HostileTarget, 'call' | 'async'>, hostile: HostileCase): Promise<CallOutcome> {
  return target.async === true ? outcomeOf(() => target.call(...hostile.args)) : syncOutcomeOf(() => target.call(...hostile.args));
}

const KEBAB_CODE = /^[a-z]+(?:-[a-z]+)*$/;
const HOSTILE_RUNS = 150;

function runsOf(target: Pick<HostileTarget, 'runs'>): number {
  return runs(target.runs ?? HOSTILE_RUNS);
}

/** Why `outcome` breaks the contract for `returns`, or `undefined` when it keeps it. */
function breach(outcome: CallOutcome, returns: HostileReturn): string | undefined {
  if ('threw' in outcome) return `threw ${outcome.threw}`;
  const value = outcome.returned;
  switch (returns) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `returned ${typeof value}, not a boolean`;
    case 'value':
      return undefined;
    case 'result':
    case 'refusal': {
      if (typeof value !== 'object' || value === null) return `returned ${typeof value}, not a result`;
      const result = value as { readonly ok?: unknown; readonly code?: unknown; readonly message?: unknown };
      if (result.ok === true) return returns === 'refusal' ? 'accepted a hostile value' : undefined;
      if (result.ok !== false) return 'returned a result without ok';
      if (typeof result.code !== 'string' || !KEBAB_CODE.test(result.code)) return 'refused without a kebab-case code';
      return typeof result.message === 'string' ? undefined : 'refused without a message';
    }
  }
}

async function checkCase(target: HostileTarget, hostile: HostileCase): Promise<string | undefined> {
  const problem = breach(await runTarget(target, hostile), target.returns);
  return problem === undefined ? undefined : `${hostile.label}: ${problem}`;
}

/**
 * Declares, for each named never-throwing function, that no hostile value in
 * any argument position makes it throw (or reject), that it returns what
 * `returns` says, and that no watched prototype changes.
 */
function describeNeverThrows(title: string, targets: Readonly<Record<string, HostileTarget>>): void {
  describe(title, () => {
    for (const [name, target] of Object.entries(targets)) {
      it(`${name} never throws on any hostile argument, and pollutes nothing (§2.1, §2.7)`, async () => {
        const before = snapshotPrototypes();
        const problems: string[] = [];
        for (const hostile of everyHostileArgument(target.valid)) {
          const problem = await checkCase(target, hostile);
          if (problem !== undefined) problems.push(problem);
        }
        expect(problems).toEqual([]);
        await fc.assert(
          fc.asyncProperty(hostileArgumentsArbitrary(target.valid), async (hostile) => {
            expect(await checkCase(target, hostile)).toBeUndefined();
          }),
          { numRuns: runsOf(target) },
        );
        expect(prototypeChanges(before)).toEqual([]);
      });
    }
  });
}

/**
 * Declares, for each named function documented as throwing, that on hostile
 * arguments it either returns or throws a `TypeError`, nothing else (§2.1),
 * and pollutes nothing.
 */
function describeThrowsOnlyTypeError(
  title: string,
  targets: Readonly<Record<string, Pick<HostileTarget, 'call' | 'valid' | 'runs' | 'async'>>>,
): void {
  describe(title, () => {
    for (const [name, target] of Object.entries(targets)) {
      it(`${name} throws nothing but TypeError on hostile arguments, and pollutes nothing (§2.1)`, async () => {
        const before = snapshotPrototypes();
        const problems: string[] = [];
        const check = async (hostile: HostileCase): Promise<string | undefined> => {
          const outcome = await runTarget(target, hostile);
          return 'threw' in outcome && !outcome.threw.startsWith('TypeError: ') ? `${hostile.label}: threw ${outcome.threw}` : undefined;
        };
        for (const hostile of everyHostileArgument(target.valid)) {
          const problem = await check(hostile);
          if (problem !== undefined) problems.push(problem);
        }
        expect(problems).toEqual([]);
        await fc.assert(
          fc.asyncProperty(hostileArgumentsArbitrary(target.valid), async (hostile) => {
            expect(await check(hostile)).toBeUndefined();
          }),
          { numRuns: runsOf(target) },
        );
        expect(prototypeChanges(before)).toEqual([]);
      });
    }
  });
}

/** `method` as a target's `call`: the hostile checks call it with values outside its parameter types. */
export function anyArguments<Args extends unknown[]>(method: (...args: Args) => unknown): (...args: unknown[]) => unknown {
  return (...args) => method(...(args as Args));
}

/**
 * How a package's function exports are classified. A target named `a.b`,
 * `a().b`, `new A` or with a note in brackets is a method, a constructor or a
 * second call of an export, and classifies nothing by itself.
 */
export interface FunctionClassification {
  readonly neverThrowing: Readonly<Record<string, HostileTarget>>;
  readonly throwing: Readonly<Record<string, Pick<HostileTarget, 'call' | 'valid' | 'runs' | 'async'>>>;
  /** Exports checked another way, each with the reason. */
  readonly others?: Readonly<Record<string, string>>;
}

const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * Declares that every runtime function export of `module` is classified:
 * a never-throwing or throwing target, or one of `others`. A new export fails
 * it until it is placed (issue 12: every exported function is one or the other).
 */
function describeEveryFunctionClassified(
  title: string,
  module: Readonly<Record<string, unknown>>,
  classification: FunctionClassification,
): void {
  describe(title, () => {
    it('places every exported function: never-throwing, throwing TypeError only, or checked another way (issue 12)', () => {
      const classified = [classification.neverThrowing, classification.throwing, classification.others ?? {}]
        .flatMap((group) => Object.keys(group))
        .filter((name) => EXPORT_NAME.test(name));
      const functions = Object.keys(module).filter((name) => typeof module[name] === 'function');
      expect([...new Set(classified)].sort()).toEqual(functions.sort());
    });
  });
}

/**
 * The hostile-input contract of one package (issue 12): its never-throwing
 * targets never throw on any hostile argument, its throwing ones throw only
 * `TypeError`, neither pollutes a prototype, and every function `module`
 * exports is placed in one of the groups.
 */
export function describeHostileContract(
  name: string,
  module: Readonly<Record<string, unknown>>,
  classification: FunctionClassification,
): void {
  describeNeverThrows(`${name}: never-throwing functions`, classification.neverThrowing);
  describeThrowsOnlyTypeError(`${name}: functions documented as throwing TypeError`, classification.throwing);
  describeEveryFunctionClassified(`${name}: every exported function is classified`, module, classification);
}
