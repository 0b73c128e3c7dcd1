/**
 * Product events: events a product adds to the v1 union under a namespaced
 * name (`scout.products`), with JSON data its own schema judges and a channel
 * it declares. Core checks the name, the bound of the data and the product's
 * verdict; it never reads the data. The base parsers know no product event
 * (`unknown-event`): a reader opts in through `createChatCodec({ events })`.
 */
import type { ChatChannel } from './events.js';
import { CHAT_LIMITS } from '../primitives/limits.js';
import { hasOwn, isPlainObject } from '../primitives/primitives.js';
import type { ChatIssue } from '../primitives/result.js';

/**
 * The part of the Standard Schema interface (v1, `~standard`) a product's data
 * schema needs: zod 3.25+ and 4 (classic and `zod/mini`), valibot and arktype
 * schemas all have it, so a product brings its own validator and no peer.
 */
export interface ProductEventDataSchema<Data = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => ProductEventValidation<Data> | Promise<ProductEventValidation<Data>>;
    readonly types?: { readonly input: unknown; readonly output: Data } | undefined;
  };
}

/** What a Standard Schema's `validate` returns: the value, or the issues found. */
export type ProductEventValidation<Data> =
  | { readonly value: Data; readonly issues?: undefined }
  | {
      readonly issues: readonly {
        readonly message: string;
        readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
      }[];
    };

/** One product event as a product registers it: the schema of its data and its channel. */
export interface ProductEventDefinition<Data = unknown, Channel extends ChatChannel = ChatChannel> {
  /** Judges `data` (synchronously); the value kept is the data as sent, never the schema's output. */
  readonly schema: ProductEventDataSchema<Data>;
  /**
   * `event`: kept in order in the turn (`productEvents`); `state`: the last
   * value per name wins (`productState`); `transient`: in the turn's log only.
   */
  readonly channel: Channel;
}

/** A product's events by name. */
export type ProductEventDefinitions = Readonly<Record<string, ProductEventDefinition>>;

/** The data type a definition's schema describes. */
export type ProductEventDataOf<Definition> = Definition extends {
  readonly schema: { readonly '~standard': { readonly types?: { readonly output: infer Data } | undefined } };
}
  ? Data
  : unknown;

/** The product events of `Events` as they travel in an envelope: `{ type: name, data }`, one per name. */
export type ProductEventOf<Events> = {
  [Name in keyof Events & string]: { type: Name; data: ProductEventDataOf<Events[Name]> };
}[keyof Events & string];

/** The names of `Events` registered on `Channel`. */
export type ProductEventNamesOn<Events, Channel extends ChatChannel> = {
  [Name in keyof Events & string]: Events[Name] extends { readonly channel: Channel } ? Name : never;
}[keyof Events & string];

/** The fields of every product event, in wire order: what encoders copy and digests read. */
export const PRODUCT_EVENT_FIELDS: readonly ['type', 'data'] = /* @__PURE__ */ Object.freeze(['type', 'data'] as const);

/**
 * A namespaced product event name: two or more dot-separated segments, each a
 * lower-case letter then letters, digits, `_` or `-` (`scout.cart_mutate`).
 * The dot makes it one no base v1 type can ever take.
 */
const PRODUCT_EVENT_NAME = /^[a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)+$/;

/** True when `value` is a namespaced product event name (see `createChatCodec`). */
export function isProductEventName(value: unknown): value is string {
  return typeof value === 'string' && value.length <= CHAT_LIMITS.maxNameLength && PRODUCT_EVENT_NAME.test(value);
}

const CHANNELS: readonly ChatChannel[] = ['event', 'state', 'transient'];

/** A registered product event, ready for the parsers and the reducer. */
export interface CompiledProductEvent {
  readonly channel: ChatChannel;
  /** Null when the data is acceptable, else the first problem, with its path relative to the data. */
  readonly check: (data: unknown) => ChatIssue | null;
}

/**
 * Checks a product's registrations and compiles them. Throws `TypeError`
 * naming the problem (a programming error, at creation only): definitions
 * that are not an object, a name that is not namespaced, a channel outside
 * `event`/`state`/`transient`, a schema without a Standard Schema `validate`.
 */
export function compileProductEvents(events: unknown): ReadonlyMap<string, CompiledProductEvent> {
  if (!isPlainObject(events)) throw new TypeError('createChatCodec: events must map product event names to { schema, channel }');
  const compiled = new Map<string, CompiledProductEvent>();
  for (const name of Object.keys(events)) {
    const fail = (problem: string): never => {
      throw new TypeError(`createChatCodec: events[${JSON.stringify(name)}]: ${problem}`);
    };
    if (!isProductEventName(name)) {
      fail('a product event name is namespaced: lower-case segments joined by dots (scout.products), so it never clashes with a base type');
    }
    const definition: unknown = events[name];
    if (!isPlainObject(definition)) fail('expected { schema, channel }');
    const { schema, channel } = definition as { readonly schema?: unknown; readonly channel?: unknown };
    if (typeof channel !== 'string' || !CHANNELS.includes(channel as ChatChannel)) fail('channel must be event, state or transient');
    const validate = standardValidateOf(schema);
    if (validate === undefined)
      fail('schema must be a Standard Schema (zod, valibot, arktype, or { "~standard": { version: 1, vendor, validate } })');
    compiled.set(name, { channel: channel as ChatChannel, check: productSchemaCheck(validate as (value: unknown) => unknown) });
  }
  return compiled;
}

/**
 * The `validate` of a Standard Schema (`schema['~standard'].validate`), bound
 * to its `~standard` object, or `undefined` when `schema` is not one. Reads
 * plain properties only; a getter that throws is the caller's to catch.
 */
export function standardValidateOf(schema: unknown): ((value: unknown) => unknown) | undefined {
  const standard = typeof schema === 'object' && schema !== null ? (schema as { readonly '~standard'?: unknown })['~standard'] : undefined;
  const validate = typeof standard === 'object' && standard !== null ? (standard as { readonly validate?: unknown }).validate : undefined;
  return typeof validate === 'function' ? (validate as (value: unknown) => unknown).bind(standard) : undefined;
}

/**
 * A check of JSON data by a product's Standard Schema `validate`: `null` when
 * it accepts, else the first issue. The product's schema is the product's
 * code: whatever it throws or returns that is not a synchronous verdict
 * refuses the data, and the parsers built on this still never throw. Internal:
 * product events and history `product` content are judged through it.
 */
export function productSchemaCheck(validate: (value: unknown) => unknown): (data: unknown) => ChatIssue | null {
  return (data) => {
    let verdict: unknown;
    try {
      verdict = validate(data);
    } catch {
      return { path: [], message: 'the product schema threw' };
    }
    if (typeof verdict !== 'object' || verdict === null) return { path: [], message: 'the product schema gave no verdict' };
    if (typeof (verdict as { readonly then?: unknown }).then === 'function') {
      return { path: [], message: 'the product schema is asynchronous; a parser judges synchronously' };
    }
    const issues = (verdict as { readonly issues?: unknown }).issues;
    if (issues === undefined) return null;
    const first: unknown = Array.isArray(issues) ? issues[0] : undefined;
    return { path: issuePath(first), message: issueMessage(first) };
  };
}

function issueMessage(issue: unknown): string {
  const message = isPlainObject(issue) ? issue['message'] : undefined;
  return typeof message === 'string' && message !== '' ? message : 'refused by the product schema';
}

function issuePath(issue: unknown): (string | number)[] {
  const path = isPlainObject(issue) ? issue['path'] : undefined;
  if (!Array.isArray(path)) return [];
  return path.map((segment: unknown) => {
    const key = isPlainObject(segment) && hasOwn(segment, 'key') ? segment['key'] : segment;
    return typeof key === 'number' || typeof key === 'string' ? key : String(key);
  });
}
