/**
 * A legacy dialect as data: where a frame names its type, and for each legacy
 * type either the transport role it plays (`session`, `heartbeat`) or the v1
 * event it becomes, with a field map that reads both ways. It owns the
 * vocabulary and the checks that make a definition usable; reading frames,
 * lifting them to v1 and projecting v1 down live in their own modules.
 */
import { CHAT_EVENT_FIELDS, type ChatEventTypeV1, type LegacyCardSnapshot } from '@papercusp/chat-protocol-core';

/**
 * How a legacy field reads, and what it becomes in v1. Required kinds make a
 * frame without a usable value `invalid-event`; optional kinds (`…?`) keep a
 * value only when it has their type, as the legacy `parseChatEvent` does.
 *
 * - `text`: a string, possibly empty. `name`: a non-empty string.
 * - `message`: a string; anything else reads as `'stream error'` (an error is never lost).
 * - `version`: a number; anything else reads as `0`.
 * - `card`: an object with string `correlationId` and `prompt`, passed through;
 *   its epoch-millisecond `createdAt`/`expiresAt` become RFC 3339 in v1 and back.
 * - `string?`, `boolean?`, `number?`, `nullable-string?` (a string or `null`),
 *   `object?` (a non-array object), `json?` (any value): copied as they are.
 * - `call-id`: an optional string; when absent, the host's call-id mapping
 *   supplies the v1 `callId`, else `missing-call-identity`.
 * - `outcome`: an optional boolean `ok` ↔ v1 `status` `succeeded`/`failed`;
 *   absent is `unknown-status`, never a fabricated success.
 */
export type LegacyFieldKind =
  | 'text'
  | 'name'
  | 'message'
  | 'version'
  | 'card'
  | 'string?'
  | 'boolean?'
  | 'number?'
  | 'nullable-string?'
  | 'object?'
  | 'json?'
  | 'call-id'
  | 'outcome';

/** The TypeScript type a decoded field of each kind has. */
export interface LegacyFieldKindTypes {
  readonly text: string;
  readonly name: string;
  readonly message: string;
  readonly version: number;
  readonly card: LegacyCardSnapshot;
  readonly 'string?': string;
  readonly 'boolean?': boolean;
  readonly 'number?': number;
  readonly 'nullable-string?': string | null;
  readonly 'object?': Readonly<Record<string, unknown>>;
  readonly 'json?': unknown;
  readonly 'call-id': string;
  readonly outcome: boolean;
}

/** The kinds a frame cannot omit. */
export type RequiredLegacyFieldKind = 'text' | 'name' | 'message' | 'version' | 'card';

/** A JSON primitive: the values a field default or a fixed v1 value may take. */
export type LegacyPrimitive = string | number | boolean | null;

/**
 * One legacy field: its kind (the v1 field has the same name), or the kind with
 * the v1 field it maps to and, for optional kinds, the v1 value that absence
 * means. Encoding omits a field whose v1 value equals its default, so both
 * directions stay lossless.
 */
export type LegacyFieldSpec =
  | LegacyFieldKind
  | { readonly kind: LegacyFieldKind; readonly v1?: string; readonly default?: LegacyPrimitive };

/** Legacy field name → its spec, in the order encoding writes them. */
export type LegacyFieldMap = Readonly<Record<string, LegacyFieldSpec>>;

/** A legacy type that carries no event: it is never upgraded and never persisted. */
export interface LegacyTransportType {
  readonly transport: 'session' | 'heartbeat';
  readonly fields?: LegacyFieldMap;
}

/**
 * A legacy type that becomes the v1 event `v1`. `fixed` names v1 fields the
 * legacy form cannot carry and the one value it stands for (a legacy `done` is
 * `status: 'completed'`): upgrading sets them, and encoding refuses an event
 * whose value differs (`unsupported-event`).
 */
export interface LegacyEventType {
  readonly v1: ChatEventTypeV1;
  readonly fields?: LegacyFieldMap;
  readonly fixed?: Readonly<Record<string, LegacyPrimitive>>;
}

/** Where a frame names its type: the SSE `event:` line, or a field of the JSON data. */
export type LegacyTypeSource = 'event' | { readonly field: string };

/** A dialect, declared: see {@link defineLegacyDialect}. */
export interface LegacyDialectDefinition {
  readonly name: string;
  readonly typeFrom: LegacyTypeSource;
  readonly types: Readonly<Record<string, LegacyTransportType | LegacyEventType>>;
}

type KindOf<Spec> = Spec extends LegacyFieldKind ? Spec : Spec extends { readonly kind: infer Kind } ? Kind : never;
type FieldType<Spec> = LegacyFieldKindTypes[KindOf<Spec> & LegacyFieldKind];
type Simplify<T> = { [Key in keyof T]: T[Key] } & {};

/** The decoded fields of one legacy type: required kinds always present, optional ones only when sent. */
export type LegacyFieldsOf<Fields> = Simplify<
  {
    readonly [Key in keyof Fields as KindOf<Fields[Key]> extends RequiredLegacyFieldKind ? Key : never]: FieldType<Fields[Key]>;
  } & {
    readonly [Key in keyof Fields as KindOf<Fields[Key]> extends RequiredLegacyFieldKind ? never : Key]?: FieldType<Fields[Key]>;
  }
>;

/** The decoded event union of a dialect definition, discriminated by its legacy `type`. */
export type LegacyEventOf<Definition extends LegacyDialectDefinition> = {
  [Type in keyof Definition['types'] & string]: Simplify<
    { readonly type: Type } & LegacyFieldsOf<
      Definition['types'][Type] extends { readonly fields: infer Fields } ? Fields : Record<never, never>
    >
  >;
}[keyof Definition['types'] & string];

/** One field of a compiled dialect. */
interface CompiledField {
  readonly legacy: string;
  readonly v1: string;
  readonly kind: LegacyFieldKind;
  readonly default?: LegacyPrimitive;
}

/** One type of a compiled dialect. */
export interface CompiledType {
  readonly legacy: string;
  readonly transport: 'session' | 'heartbeat' | undefined;
  readonly v1: ChatEventTypeV1 | undefined;
  readonly fields: readonly CompiledField[];
  readonly fixed: Readonly<Record<string, LegacyPrimitive>>;
}

declare const dialectBrand: unique symbol;

/**
 * A checked, ready dialect made by {@link defineLegacyDialect}; pass it to the
 * decode, upgrade and encode functions. `Definition` types its decoded events.
 */
export interface LegacyDialect<Definition extends LegacyDialectDefinition = LegacyDialectDefinition> {
  readonly name: string;
  readonly definition: Definition;
  readonly [dialectBrand]: Definition;
}

/** The lookups the codec functions use, kept off the public object. */
export interface CompiledDialect {
  readonly typeField: string | undefined;
  readonly byLegacyType: ReadonlyMap<string, CompiledType>;
  readonly byV1Type: ReadonlyMap<ChatEventTypeV1, CompiledType>;
}

const compiledDialects = /* @__PURE__ */ new WeakMap<object, CompiledDialect>();

/**
 * The dialect in `options.dialect` with its compiled form, or `undefined` when
 * the options cannot be read (null, a throwing getter, a Proxy) or hold no
 * dialect {@link defineLegacyDialect} made. Never throws: the codec functions
 * refuse such options as `invalid-options`.
 */
export function readDialectOption(options: unknown): { readonly dialect: LegacyDialect; readonly compiled: CompiledDialect } | undefined {
  let dialect: unknown;
  try {
    dialect = (options as { readonly dialect?: unknown }).dialect;
  } catch {
    return undefined;
  }
  // A WeakMap lookup runs no trap of a Proxy key, and is undefined for a primitive.
  const compiled = compiledDialects.get(dialect as object);
  return compiled === undefined ? undefined : { dialect: dialect as LegacyDialect, compiled };
}

const KINDS: ReadonlySet<string> = /* @__PURE__ */ new Set<LegacyFieldKind>([
  'text',
  'name',
  'message',
  'version',
  'card',
  'string?',
  'boolean?',
  'number?',
  'nullable-string?',
  'object?',
  'json?',
  'call-id',
  'outcome',
]);

/** The optional kinds a default may stand in for, with the type of that default. */
const DEFAULT_TYPES: Readonly<Partial<Record<LegacyFieldKind, string>>> = {
  'string?': 'string',
  'boolean?': 'boolean',
  'number?': 'number',
  'nullable-string?': 'string',
};

/** Kinds that only make sense for one v1 field. */
const KIND_TARGET: Readonly<Partial<Record<LegacyFieldKind, string>>> = { card: 'card', 'call-id': 'callId', outcome: 'status' };

/**
 * The v1 fields an event cannot omit, per type. Pinned against core's schemas
 * by a test, so a contract change cannot leave a dialect check behind.
 */
export const REQUIRED_V1_FIELDS: { readonly [Type in ChatEventTypeV1]: readonly string[] } = {
  delta: ['text'],
  reasoning: ['text'],
  tool_call: ['callId', 'name'],
  tool_result: ['callId', 'name', 'status'],
  provenance: ['engine', 'model'],
  card: ['card'],
  card_closed: ['correlationId'],
  state: ['version', 'snapshot'],
  navigate: ['href'],
  done: ['status'],
  error: ['code', 'message', 'retryable'],
};

/**
 * Checks a dialect definition and compiles it for the decode, upgrade and
 * encode functions. A dialect is data, so a host adds its own vocabulary
 * without code:
 *
 * ```ts
 * const dotted = defineLegacyDialect({
 *   name: 'dotted',
 *   typeFrom: 'event',
 *   types: {
 *     ping: { transport: 'heartbeat' },
 *     'message.delta': { v1: 'delta', fields: { delta: { kind: 'text', v1: 'text' } } },
 *     'run.finished': { v1: 'done', fixed: { status: 'completed' } },
 *   },
 * });
 * ```
 *
 * Throws `TypeError` naming the problem when the definition cannot work both
 * ways: an unknown kind or v1 type, a v1 field the event does not have, two
 * legacy fields or types claiming the same v1 field or type, a required v1
 * field left without a source, a default that does not fit its kind, a
 * heartbeat with fields, the data
 * field that names the type reused as an event field; also when the
 * definition cannot be read. Never throws anything else. The codec functions
 * refuse a dialect this did not make as `invalid-options` (they never throw);
 * `createChatFrameDecoder` throws `TypeError` for it, at creation.
 */
export function defineLegacyDialect<const Definition extends LegacyDialectDefinition>(
  definition: Definition,
): LegacyDialect<Definition> {
  try {
    return compileDialect(definition);
  } catch (error) {
    // The one kind of throw the contract allows, also for a getter or a Proxy trap that threw.
    if (error instanceof TypeError) throw error;
    throw new TypeError('defineLegacyDialect: the definition cannot be read (a getter or a Proxy trap threw)');
  }
}

function compileDialect<const Definition extends LegacyDialectDefinition>(definition: Definition): LegacyDialect<Definition> {
  const fail = (problem: string): never => {
    throw new TypeError(`defineLegacyDialect(${JSON.stringify(definition.name)}): ${problem}`);
  };
  if (typeof definition.name !== 'string' || definition.name === '') fail('name: expected a non-empty string');
  const typeField = definition.typeFrom === 'event' ? undefined : definition.typeFrom.field;
  if (typeField !== undefined && (typeof typeField !== 'string' || typeField === '')) {
    fail('typeFrom.field: expected a non-empty string');
  }
  const byLegacyType = new Map<string, CompiledType>();
  const byV1Type = new Map<ChatEventTypeV1, CompiledType>();
  for (const [legacy, type] of Object.entries(definition.types)) {
    const compiled = compileType(legacy, type, typeField, fail);
    byLegacyType.set(legacy, compiled);
    if (compiled.v1 === undefined) continue;
    if (byV1Type.has(compiled.v1)) fail(`${legacy}: v1 type ${compiled.v1} is already encoded by ${byV1Type.get(compiled.v1)?.legacy}`);
    byV1Type.set(compiled.v1, compiled);
  }
  const dialect = Object.freeze({ name: definition.name, definition }) as LegacyDialect<Definition>;
  compiledDialects.set(dialect, { typeField, byLegacyType, byV1Type });
  return dialect;
}

function compileType(
  legacy: string,
  type: LegacyTransportType | LegacyEventType,
  typeField: string | undefined,
  fail: (problem: string) => never,
): CompiledType {
  const fields = Object.entries(type.fields ?? {}).map(([name, spec]): CompiledField => {
    const { kind, v1 = name, ...rest } = typeof spec === 'string' ? { kind: spec } : spec;
    if (!KINDS.has(kind)) fail(`${legacy}.${name}: unknown kind ${JSON.stringify(kind)}`);
    if (name === typeField) fail(`${legacy}.${name}: the data field ${name} names the type`);
    const target = KIND_TARGET[kind];
    if (target !== undefined && v1 !== target) fail(`${legacy}.${name}: kind ${kind} maps only to v1 ${target}`);
    if (rest.default !== undefined && typeof rest.default !== DEFAULT_TYPES[kind]) {
      fail(`${legacy}.${name}: a default of kind ${kind} must be a ${DEFAULT_TYPES[kind] ?? 'scalar of an optional kind'}`);
    }
    return rest.default === undefined ? { legacy: name, v1, kind } : { legacy: name, v1, kind, default: rest.default };
  });
  if ('transport' in type) {
    if (type.transport !== 'session' && type.transport !== 'heartbeat') fail(`${legacy}: unknown transport role`);
    if (type.transport === 'heartbeat' && fields.length > 0) fail(`${legacy}: a heartbeat carries no fields`);
    return { legacy, transport: type.transport, v1: undefined, fields, fixed: {} };
  }
  const v1 = type.v1;
  if (!Object.prototype.hasOwnProperty.call(CHAT_EVENT_FIELDS, v1)) fail(`${legacy}: unknown v1 type ${JSON.stringify(v1)}`);
  const allowed: readonly string[] = CHAT_EVENT_FIELDS[v1];
  const fixed = type.fixed ?? {};
  const sources = new Set<string>();
  for (const v1Field of [...fields.map((field) => field.v1), ...Object.keys(fixed)]) {
    if (v1Field === 'type' || !allowed.includes(v1Field)) fail(`${legacy}: v1 ${v1} has no field ${v1Field}`);
    if (sources.has(v1Field)) fail(`${legacy}: v1 field ${v1Field} has two sources`);
    sources.add(v1Field);
  }
  for (const required of REQUIRED_V1_FIELDS[v1]) {
    if (!sources.has(required)) fail(`${legacy}: v1 ${v1} needs ${required}, which no field or fixed value supplies`);
  }
  return { legacy, transport: undefined, v1, fields, fixed };
}
