/**
 * Hostile values for the never-throws properties every package runs (DESIGN
 * §2.1, §2.7; issue 12 "Hostile input"): a named catalogue of values no JSON
 * parser returns (cycles, BigInt, throwing getters and Proxies, 100,000-level
 * nesting, ...), and near-valid mutations that plant one of them at a random
 * position of an otherwise valid argument. It owns no assertion about what a
 * function returns: each package's `never-throws.test.ts` states that.
 *
 * Every generated case prints as its label, never as its value: printing a
 * Proxy whose traps throw would itself throw inside the test reporter.
 */
import fc from 'fast-check';

/** One catalogue entry: a stable name (for failure reports) and the value. */
interface HostileValue {
  readonly name: string;
  readonly value: unknown;
}

/** The arguments of one call and a label saying how they were made. Prints as its label. */
export interface HostileCase {
  readonly label: string;
  readonly args: readonly unknown[];
}

const DEEP_LEVELS = 100_000;
const HUGE_STRING_LENGTH = 5_000_000;

function hostileError(): Error {
  return new Error('hostile value: this read was refused on purpose');
}

type TrapName = keyof ProxyHandler<object>;
const TRAP_NAMES: readonly TrapName[] = [
  'apply',
  'construct',
  'defineProperty',
  'deleteProperty',
  'get',
  'getOwnPropertyDescriptor',
  'getPrototypeOf',
  'has',
  'isExtensible',
  'ownKeys',
  'preventExtensions',
  'set',
  'setPrototypeOf',
];

/** Throws the hostile error: a getter or a trap for the exact-outcome tests. */
export function throwHostile(): never {
  throw hostileError();
}

/** A handler whose every trap throws, so any operation on the Proxy but `typeof` throws. */
const THROWING_HANDLER: ProxyHandler<object> = Object.freeze(Object.fromEntries(TRAP_NAMES.map((trap) => [trap, throwHostile])));

/** A Proxy whose every trap throws: only `typeof` works on it. */
export const everyTrapThrows: object = new Proxy({}, THROWING_HANDLER);

/** A Proxy over `target` that behaves normally except that the trap `trap` throws. */
function proxyThrowingOn(target: object, trap: TrapName): object {
  return new Proxy(target, { [trap]: throwHostile });
}

let deepObject: unknown;
let deepArray: unknown;
let hugeString: string | undefined;

/** `{ a: { a: … } }` 100,000 levels deep, built iteratively (a recursive builder would overflow the stack). */
function deeplyNestedObject(): unknown {
  if (deepObject === undefined) {
    let value: unknown = { a: 1 };
    for (let level = 0; level < DEEP_LEVELS; level++) value = { a: value };
    deepObject = value;
  }
  return deepObject;
}

/** `[[[…]]]` 100,000 levels deep, built iteratively. */
function deeplyNestedArray(): unknown {
  if (deepArray === undefined) {
    let value: unknown = [1];
    for (let level = 0; level < DEEP_LEVELS; level++) value = [value];
    deepArray = value;
  }
  return deepArray;
}

function hugeText(): string {
  hugeString ??= 'x'.repeat(HUGE_STRING_LENGTH);
  return hugeString;
}

/** An object whose enumerable own properties `keys` are getters that throw. */
function withThrowingGetters(keys: readonly string[], base: object = {}): object {
  const object: object = { ...base };
  for (const key of keys) {
    Object.defineProperty(object, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        throw hostileError();
      },
    });
  }
  return object;
}

class HostileInstance {
  readonly seq = 1;
  readonly turnId = 'turn-1';
}

/**
 * The catalogue, built fresh on each call (apart from the deep and huge values,
 * built once: they are immutable and costly). Every entry is something a host
 * or a client can hand a function; none of them is valid anywhere.
 */
function hostileValues(): readonly HostileValue[] {
  const cyclicObject: Record<string, unknown> = { type: 'delta', seq: 1 };
  cyclicObject['self'] = cyclicObject;
  const cyclicArray: unknown[] = [1];
  cyclicArray.push(cyclicArray);
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const definedProto = {};
  Object.defineProperty(definedProto, '__proto__', { value: { polluted: true }, enumerable: true, configurable: true, writable: true });
  const definedPrototype = {};
  Object.defineProperty(definedPrototype, 'prototype', { value: { polluted: true }, enumerable: true });
  const sparse: unknown[] = [];
  sparse[5] = 1;
  const arrayWithExtra = Object.assign([1, 2], { extra: true });
  const entries: [string, unknown][] = [
    ['undefined', undefined],
    ['null', null],
    ['true', true],
    ['false', false],
    ['zero', 0],
    ['negative-zero', -0],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['-Infinity', Number.NEGATIVE_INFINITY],
    ['fraction', 1.5],
    ['negative', -1],
    ['unsafe-integer', 2 ** 53],
    ['max-value', Number.MAX_VALUE],
    ['bigint', 10n],
    ['symbol', Symbol('hostile')],
    ['function', () => 1],
    ['class', HostileInstance],
    ['empty-string', ''],
    ['huge-string', hugeText()],
    ['lone-high-surrogate', 'a\ud800b'],
    ['lone-low-surrogate', '\udc00'],
    ['control-characters', 'a\u0000b\u0007c\u001b'],
    ['line-separators', '\u2028\u2029'],
    ['proto-string', '__proto__'],
    ['empty-object', {}],
    ['empty-array', []],
    ['null-prototype-object', Object.create(null) as object],
    ['cyclic-object', cyclicObject],
    ['cyclic-array', cyclicArray],
    ['deep-object', deeplyNestedObject()],
    ['deep-array', deeplyNestedArray()],
    ['throwing-getters', withThrowingGetters(['type', 'seq', 'turnId', 'after', 'kind', 'event', 'schemaVersion', 'length', 'status'])],
    ['throwing-proxy', new Proxy({}, THROWING_HANDLER)],
    ['throwing-array-proxy', new Proxy([], THROWING_HANDLER)],
    ['throwing-function-proxy', new Proxy(() => 1, THROWING_HANDLER)],
    ['revoked-proxy', revocable.proxy],
    ['json-proto-key', JSON.parse('{"__proto__":{"polluted":true}}') as unknown],
    ['json-constructor-key', JSON.parse('{"constructor":{"prototype":{"polluted":true}}}') as unknown],
    ['defined-proto-key', definedProto],
    ['defined-prototype-key', definedPrototype],
    ['frozen-object', Object.freeze({ seq: 1 })],
    ['frozen-array', Object.freeze([1, 2])],
    ['class-instance', new HostileInstance()],
    ['date', new Date(0)],
    ['invalid-date', new Date(Number.NaN)],
    ['map', new Map([['seq', 1]])],
    ['set', new Set([1])],
    ['regexp', /hostile/g],
    ['error', new Error('hostile')],
    ['promise', Promise.resolve(1)],
    ['typed-array', new Uint8Array([1, 2])],
    ['sparse-array', sparse],
    ['array-with-extra-key', arrayWithExtra],
    [
      'throwing-to-json',
      {
        toJSON: () => {
          throw hostileError();
        },
      },
    ],
    [
      'throwing-to-primitive',
      {
        [Symbol.toPrimitive]: () => {
          throw hostileError();
        },
        toString: () => {
          throw hostileError();
        },
      },
    ],
    ['boxed-string', Object('text') as object],
    ['boxed-number', Object(1) as object],
  ];
  return entries.map(([name, value]) => ({ name, value }));
}

const CATALOGUE_SIZE = hostileValues().length;

/** One catalogue value, chosen at random (shrinks towards `undefined`). */
const hostileValueArbitrary: fc.Arbitrary<HostileValue> = fc
  .nat({ max: CATALOGUE_SIZE - 1 })
  .map((index) => hostileValues()[index] as HostileValue);

type Mutation = 'replace' | 'getter' | 'proxy' | 'proto-key' | 'constructor-key' | 'delete';
const MUTATIONS: readonly Mutation[] = ['replace', 'getter', 'proxy', 'proto-key', 'constructor-key', 'delete'];

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return true;
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** How many plain objects and arrays `value` holds, itself included (pre-order). */
function countContainers(value: unknown): number {
  if (!isContainer(value)) return 0;
  let count = 1;
  for (const child of Object.values(value)) count += countContainers(child);
  return count;
}

interface Plan {
  readonly node: number;
  readonly key: number;
  readonly mutation: Mutation;
  readonly trap: TrapName;
  readonly hostile: HostileValue;
}

/** A copy of `value` with the mutation of `plan` applied to its `plan.node`-th container. */
function mutate(value: unknown, plan: Plan, counter: { index: number }): unknown {
  if (!isContainer(value)) return value;
  const here = counter.index++;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  for (const [key, child] of Object.entries(value)) (copy as Record<string, unknown>)[key] = mutate(child, plan, counter);
  if (here !== plan.node) return copy;
  const keys = Object.keys(copy);
  const key = keys.length === 0 ? 'extra' : (keys[plan.key % keys.length] as string);
  switch (plan.mutation) {
    case 'replace':
      (copy as Record<string, unknown>)[key] = plan.hostile.value;
      return copy;
    case 'getter':
      return withThrowingGetters([key], copy);
    case 'proxy':
      return proxyThrowingOn(copy, plan.trap);
    case 'proto-key':
      Object.defineProperty(copy, '__proto__', { value: plan.hostile.value, enumerable: true, configurable: true, writable: true });
      return copy;
    case 'constructor-key':
      (copy as Record<string, unknown>)['constructor'] = plan.hostile.value;
      return copy;
    case 'delete':
      if (Array.isArray(copy)) copy.length = Math.max(0, copy.length - 1);
      else delete copy[key];
      return copy;
  }
}

function describePlan(plan: Plan): string {
  switch (plan.mutation) {
    case 'replace':
    case 'proto-key':
    case 'constructor-key':
      return `${plan.mutation} at node ${plan.node}, key #${plan.key}, with ${plan.hostile.name}`;
    case 'getter':
    case 'delete':
      return `${plan.mutation} at node ${plan.node}, key #${plan.key}`;
    case 'proxy':
      return `proxy throwing on ${plan.trap} at node ${plan.node}`;
  }
}

/**
 * `valid` with one hostile change at a random position: a value replaced by a
 * catalogue value, a property turned into a throwing getter, a container
 * wrapped in a Proxy whose one trap throws, an own `__proto__` or `constructor`
 * key added, or a property removed. Near-valid values reach the checks behind
 * the first one, which pure garbage never does. A `valid` holding no plain
 * object or array gives a catalogue value instead.
 */
function nearValidArbitrary(valid: unknown): fc.Arbitrary<{ readonly label: string; readonly value: unknown }> {
  const nodes = countContainers(valid);
  if (nodes === 0) return hostileValueArbitrary.map((hostile) => ({ label: hostile.name, value: hostile.value }));
  return fc
    .record({
      node: fc.nat({ max: nodes - 1 }),
      key: fc.nat({ max: 63 }),
      mutation: fc.constantFrom(...MUTATIONS),
      trap: fc.constantFrom(...TRAP_NAMES),
      hostile: hostileValueArbitrary,
    })
    .map((plan) => ({ label: describePlan(plan), value: mutate(valid, plan, { index: 0 }) }));
}

function printable(label: string, args: readonly unknown[]): HostileCase {
  return { label, args, [fc.toStringMethod]: () => label } as HostileCase;
}

/**
 * Calls built from `valid` (one valid argument list): each position keeps its
 * valid argument, gets a near-valid mutation of it, or a catalogue value, and at
 * least one position is hostile. Prints as a label such as
 * `arg0=valid arg1=getter at node 0, key #3`.
 */
export function hostileArgumentsArbitrary(valid: readonly unknown[]): fc.Arbitrary<HostileCase> {
  const positions = valid.map((argument) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant({ label: 'valid', value: argument, hostile: false }) },
      { weight: 3, arbitrary: nearValidArbitrary(argument).map((near) => ({ ...near, hostile: true })) },
      { weight: 2, arbitrary: hostileValueArbitrary.map((hostile) => ({ label: hostile.name, value: hostile.value, hostile: true })) },
    ),
  );
  return fc
    .tuple(...positions)
    .filter((chosen) => chosen.some((position) => position.hostile))
    .map((chosen) =>
      printable(
        chosen.map((position, index) => `arg${index}=${position.label}`).join(' '),
        chosen.map((position) => position.value),
      ),
    );
}

/**
 * Every catalogue value in every argument position, the others valid: the
 * exhaustive sweep beside the random property, so no catalogue entry is left to
 * chance in any position.
 */
export function everyHostileArgument(valid: readonly unknown[]): readonly HostileCase[] {
  const cases: HostileCase[] = [];
  for (let position = 0; position < valid.length; position++) {
    for (const hostile of hostileValues()) {
      const args = [...valid];
      args[position] = hostile.value;
      cases.push(printable(`arg${position}=${hostile.name}`, args));
    }
  }
  return cases;
}

const WATCHED_PROTOTYPES: readonly [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

/** What every watched prototype holds, key by key. */
export interface PrototypeSnapshot {
  readonly entries: ReadonlyMap<string, PropertyDescriptor | undefined>;
}

/** Records the own properties of `Object.prototype`, `Array.prototype`, `Function.prototype` and `String.prototype`. */
export function snapshotPrototypes(): PrototypeSnapshot {
  const entries = new Map<string, PropertyDescriptor | undefined>();
  for (const [name, prototype] of WATCHED_PROTOTYPES) {
    for (const key of Reflect.ownKeys(prototype)) {
      entries.set(`${name}.${String(key)}`, Reflect.getOwnPropertyDescriptor(prototype, key));
    }
    entries.set(`${name} [[Prototype]]`, { value: Object.getPrototypeOf(prototype) as unknown });
  }
  return { entries };
}

/** The properties added, removed or changed on a watched prototype since `before`; empty when none. */
export function prototypeChanges(before: PrototypeSnapshot): readonly string[] {
  const after = snapshotPrototypes();
  const changes: string[] = [];
  for (const [key, descriptor] of after.entries) {
    const earlier = before.entries.get(key);
    if (!before.entries.has(key)) changes.push(`added ${key}`);
    else if (!sameDescriptor(earlier, descriptor)) changes.push(`changed ${key}`);
  }
  for (const key of before.entries.keys()) if (!after.entries.has(key)) changes.push(`removed ${key}`);
  return changes;
}

function sameDescriptor(left: PropertyDescriptor | undefined, right: PropertyDescriptor | undefined): boolean {
  return (
    left?.value === right?.value &&
    left?.get === right?.get &&
    left?.set === right?.set &&
    left?.writable === right?.writable &&
    left?.enumerable === right?.enumerable &&
    left?.configurable === right?.configurable
  );
}

/** How a call ended: its return value, or what it threw (a never-throws property wants `returned`). */
export type CallOutcome = { readonly returned: unknown } | { readonly threw: string };

/** Runs `call`, awaiting a promise it returns, and reports how it ended instead of throwing. */
export async function outcomeOf(call: () => unknown): Promise<CallOutcome> {
  try {
    return { returned: await call() };
  } catch (error) {
    return { threw: describeThrown(error) };
  }
}

/** Runs `call` synchronously and reports how it ended instead of throwing. */
export function syncOutcomeOf(call: () => unknown): CallOutcome {
  try {
    return { returned: call() };
  } catch (error) {
    return { threw: describeThrown(error) };
  }
}

function describeThrown(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : `non-error ${typeof error}`;
  } catch {
    return 'an unreadable throw';
  }
}
