/**
 * A legacy dialect as data: where a frame names its type, and for each legacy
 * type either the transport role it plays (`session`, `heartbeat`, `resync`) or the v1
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
 * - `message`: a string; anything else reads as `'stream error'` (an error is
 *   never lost). In v1, a message past `CHAT_LIMITS.maxSummaryLength` is cut
 *   there (never inside a surrogate pair), and an empty one is `'stream error'`.
 * - `version`: a number; anything else reads as `0`.
 * - `card`: an object with string `correlationId` and `prompt`; its
 *   epoch-millisecond `createdAt`/`expiresAt` become RFC 3339 in v1 and back,
 *   and its loose shapes are normalized (an absent `allowDecline` is `true`,
 *   options in a JSON string decoded, …) or refused as `unsupported-card` by
 *   the card rules (the README's table); `allowDecline` is always written back.
 * - `string?`, `boolean?`, `number?`, `nullable-string?` (a string or `null`),
 *   `object?` (a non-array object), `json?` (any value): copied as they are.
 * - `usage?`: an object, read into v1 `usage` by one rule (v1 usage is
 *   strict): the keys v1 has (`inputTokens`, `outputTokens`, `totalTokens`,
 *   `costUsd`) are kept when their value is one v1 holds, every other key or
 *   value is dropped, and a usage left with nothing it said is left out. A
 *   `done` is never refused for its usage.
 * - `id?`: a string, kept in v1 only when it is a v1 id (1–256 printable ASCII
 *   characters, no space), else dropped so the field's default stands in.
 * - `retry-delay?`: a number, kept in v1 (`retryAfterMs` only) when whole
 *   milliseconds from 0 to `CHAT_LIMITS.maxRetryAfterMs`, else dropped.
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
  | 'usage?'
  | 'json?'
  | 'id?'
  | 'retry-delay?'
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
  readonly 'usage?': Readonly<Record<string, unknown>>;
  readonly 'json?': unknown;
  readonly 'id?': string;
  readonly 'retry-delay?': number;
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
 *
 * `when` names v1 fields of the same event and the values v1 allows this one
 * beside (an error's `retryAfterMs` only with `retryable: true`): upgrading
 * drops the field when the event has other values, a deliberate loss of a
 * value v1 cannot hold, never a reason to refuse the frame.
 *
 * `key` reads an optional value into that key of a v1 object field whose own
 * `object?` field the type also maps (papercup's top-level `done.costUsd` into
 * `usage.costUsd`). The object's own value wins a clash, and encoding writes
 * only the object, so the value travels back inside it.
 */
export type LegacyFieldSpec =
  | LegacyFieldKind
  | {
      readonly kind: LegacyFieldKind;
      readonly v1?: string;
      readonly default?: LegacyPrimitive;
      readonly when?: Readonly<Record<string, LegacyPrimitive>>;
      readonly key?: string;
    };

/** Legacy field name → its spec, in the order encoding writes them. */
export type LegacyFieldMap = Readonly<Record<string, LegacyFieldSpec>>;

/**
 * A legacy type that carries no event: it is never upgraded and never
 * persisted. `session` and `heartbeat` upgrade to `{ kind: 'transport' }`;
 * `resync` is the SSE server's word that it cannot replay what the connection
 * missed, and upgrades to the refusal `resync-required`, so no host reads on
 * past a gap without noticing.
 */
export interface LegacyTransportType {
  readonly transport: LegacyTransportRole;
  readonly fields?: LegacyFieldMap;
}

/** The transport roles a legacy type can play. */
export type LegacyTransportRole = 'session' | 'heartbeat' | 'resync';

/**
 * A legacy type that becomes the v1 event `v1`. `fixed` names v1 fields the
 * legacy form cannot carry and the one value it stands for (a legacy `done` is
 * `status: 'completed'`): upgrading sets them, and encoding refuses an event
 * whose value differs (`unsupported-event`).
 *
 * Two options keep a frame whose data is unusable elsewhere (the built-in
 * errors use them: an error is never lost):
 * - `plainText` names a string field that holds the whole data text when it
 *   is not JSON (papercup's `event: error` `data: connection refused`), where
 *   other types are `invalid-json`. Only a type the SSE event name names can
 *   have such a frame.
 * - `uncleanText: 'replace'` reads JSON whose strings hold characters v1 text
 *   refuses (control characters, lone surrogates: a process's colour codes in
 *   `stderr`) with each replaced by U+FFFD, where other types (and the default
 *   `'refuse'`) are `unsafe-json`. Every other bound of JSON still refuses.
 */
export interface LegacyEventType {
  readonly v1: ChatEventTypeV1;
  readonly fields?: LegacyFieldMap;
  readonly fixed?: Readonly<Record<string, LegacyPrimitive>>;
  readonly plainText?: string;
  readonly uncleanText?: 'refuse' | 'replace';
}

/**
 * Where a frame names its type: the SSE `event:` line, or a field of the JSON
 * data. With a data field, `eventNames` lists the types the SSE event name
 * names on its own, whatever the data holds: the frames the SSE server writes
 * around the dialect (`event: heartbeat`, `event: error`, `event: resync`),
 * whose data does not repeat the type. A type with the `heartbeat` role is
 * always recognised by its SSE event name, and its data is never read.
 */
export type LegacyTypeSource = 'event' | { readonly field: string; readonly eventNames?: readonly string[] };

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
  readonly when?: Readonly<Record<string, LegacyPrimitive>>;
  /** Read into this key of the v1 object field; never written by encoding. */
  readonly key?: string;
}

/** One type of a compiled dialect. */
export interface CompiledType {
  readonly legacy: string;
  readonly transport: LegacyTransportRole | undefined;
  readonly v1: ChatEventTypeV1 | undefined;
  readonly fields: readonly CompiledField[];
  readonly fixed: Readonly<Record<string, LegacyPrimitive>>;
  /** The field a data text that is not JSON is read into. */
  readonly plainText: CompiledField | undefined;
  readonly replacesUncleanText: boolean;
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
  /** With a data type field: the types the SSE event name names on its own (heartbeats and `eventNames`). */
  readonly byEventName: ReadonlyMap<string, CompiledType>;
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
  'usage?',
  'json?',
  'id?',
  'retry-delay?',
  'call-id',
  'outcome',
]);

const REQUIRED_KINDS: ReadonlySet<string> = /* @__PURE__ */ new Set<RequiredLegacyFieldKind>([
  'text',
  'name',
  'message',
  'version',
  'card',
]);

const TRANSPORT_ROLES: ReadonlySet<string> = /* @__PURE__ */ new Set<LegacyTransportRole>(['session', 'heartbeat', 'resync']);

/** The optional kinds a default may stand in for, with the type of that default. */
const DEFAULT_TYPES: Readonly<Partial<Record<LegacyFieldKind, string>>> = {
  'string?': 'string',
  'boolean?': 'boolean',
  'number?': 'number',
  'nullable-string?': 'string',
  'id?': 'string',
  'retry-delay?': 'number',
};

/** Kinds that only make sense for one v1 field. */
const KIND_TARGET: Readonly<Partial<Record<LegacyFieldKind, string>>> = {
  card: 'card',
  'call-id': 'callId',
  outcome: 'status',
  'retry-delay?': 'retryAfterMs',
  'usage?': 'usage',
};

/** The kinds that read a string, which a type's `plainText` may name. */
const STRING_KINDS: ReadonlySet<string> = /* @__PURE__ */ new Set<LegacyFieldKind>(['text', 'name', 'message', 'string?', 'id?']);

/**
 * The v1 fields an event cannot omit, per type. Pinned against core's schemas
 * by a test, so a contract change cannot leave a dialect check behind.
 */
export const REQUIRED_V1_FIELDS: { readonly [Type in ChatEventTypeV1]: readonly string[] } = {
  user_input: ['text'],
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
 * `when` on a required kind or naming a v1 field without a source, a `key`
 * without an `object?` or `usage?` field for its v1 field (or on a required kind, with a
 * default or `when`, or twice for one key), a
 * heartbeat with fields, the data field that names the type reused as an
 * event field, an `eventNames` entry that is not a type of the dialect, a
 * `plainText` that names no string field of its type, an `uncleanText` other
 * than `'refuse'` or `'replace'`; also when the definition cannot be read.
 * Never throws anything else. The codec functions refuse a dialect this did
 * not make as `invalid-options` (they never throw); `createChatFrameDecoder`
 * throws `TypeError` for it, at creation.
 */
export function defineLegacyDialect<const Definition extends LegacyDialectDefinition>(definition: Definition): LegacyDialect<Definition> {
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
  const eventNames: unknown = definition.typeFrom === 'event' ? [] : (definition.typeFrom.eventNames ?? []);
  if (!Array.isArray(eventNames)) fail('typeFrom.eventNames: expected an array of type names');
  const byLegacyType = new Map<string, CompiledType>();
  const byV1Type = new Map<ChatEventTypeV1, CompiledType>();
  for (const [legacy, type] of Object.entries(definition.types)) {
    const compiled = compileType(legacy, type, typeField, fail);
    byLegacyType.set(legacy, compiled);
    if (compiled.v1 === undefined) continue;
    if (byV1Type.has(compiled.v1)) fail(`${legacy}: v1 type ${compiled.v1} is already encoded by ${byV1Type.get(compiled.v1)?.legacy}`);
    byV1Type.set(compiled.v1, compiled);
  }
  const byEventName = new Map<string, CompiledType>();
  if (typeField !== undefined) {
    for (const type of byLegacyType.values()) if (type.transport === 'heartbeat') byEventName.set(type.legacy, type);
    for (const name of eventNames as readonly unknown[]) {
      const type =
        typeof name === 'string' && Object.prototype.hasOwnProperty.call(definition.types, name) ? byLegacyType.get(name) : undefined;
      if (type === undefined)
        fail(`typeFrom.eventNames: ${typeof name === 'string' ? JSON.stringify(name) : String(name)} is not a type of this dialect`);
      else byEventName.set(type.legacy, type);
    }
  }
  const dialect = Object.freeze({ name: definition.name, definition }) as LegacyDialect<Definition>;
  compiledDialects.set(dialect, { typeField, byLegacyType, byV1Type, byEventName });
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
    if (rest.when !== undefined && (typeof rest.when !== 'object' || rest.when === null || Array.isArray(rest.when))) {
      fail(`${legacy}.${name}: when must map v1 fields to values`);
    }
    if (rest.when !== undefined && REQUIRED_KINDS.has(kind)) fail(`${legacy}.${name}: a required kind ${kind} cannot be dropped by when`);
    if (
      rest.key !== undefined &&
      (typeof rest.key !== 'string' || rest.key === '' || REQUIRED_KINDS.has(kind) || rest.default !== undefined || rest.when !== undefined)
    ) {
      fail(`${legacy}.${name}: a key needs a non-empty name and an optional kind, without default or when`);
    }
    return {
      legacy: name,
      v1,
      kind,
      ...(rest.default === undefined ? {} : { default: rest.default }),
      ...(rest.when === undefined ? {} : { when: rest.when }),
      ...(rest.key === undefined ? {} : { key: rest.key }),
    };
  });
  if ('transport' in type) {
    if (!TRANSPORT_ROLES.has(type.transport)) fail(`${legacy}: unknown transport role`);
    if (type.transport === 'heartbeat' && fields.length > 0) fail(`${legacy}: a heartbeat carries no fields`);
    return { legacy, transport: type.transport, v1: undefined, fields, fixed: {}, plainText: undefined, replacesUncleanText: false };
  }
  const v1 = type.v1;
  if (!Object.prototype.hasOwnProperty.call(CHAT_EVENT_FIELDS, v1)) fail(`${legacy}: unknown v1 type ${JSON.stringify(v1)}`);
  const allowed: readonly string[] = CHAT_EVENT_FIELDS[v1];
  const fixed = type.fixed ?? {};
  const sources = new Set<string>();
  const whole = fields.filter((field) => field.key === undefined);
  for (const v1Field of [...whole.map((field) => field.v1), ...Object.keys(fixed)]) {
    if (v1Field === 'type' || !allowed.includes(v1Field)) fail(`${legacy}: v1 ${v1} has no field ${v1Field}`);
    if (sources.has(v1Field)) fail(`${legacy}: v1 field ${v1Field} has two sources`);
    sources.add(v1Field);
  }
  for (const required of REQUIRED_V1_FIELDS[v1]) {
    if (!sources.has(required)) fail(`${legacy}: v1 ${v1} needs ${required}, which no field or fixed value supplies`);
  }
  const keys = new Set<string>();
  for (const field of fields) {
    if (field.key === undefined) continue;
    if (!whole.some((other) => other.v1 === field.v1 && (other.kind === 'object?' || other.kind === 'usage?'))) {
      fail(`${legacy}.${field.legacy}: key ${field.key} needs an object? or usage? field for v1 ${field.v1}`);
    }
    if (keys.has(`${field.v1}.${field.key}`)) fail(`${legacy}.${field.legacy}: v1 ${field.v1}.${field.key} has two sources`);
    keys.add(`${field.v1}.${field.key}`);
  }
  for (const field of fields) {
    for (const condition of Object.keys(field.when ?? {})) {
      if (condition === field.v1 || !sources.has(condition))
        fail(`${legacy}.${field.legacy}: when names ${condition}, which no other field or fixed value supplies`);
    }
  }
  const plainText =
    type.plainText === undefined ? undefined : fields.find((field) => field.legacy === type.plainText && STRING_KINDS.has(field.kind));
  if (type.plainText !== undefined && plainText === undefined) fail(`${legacy}: plainText must name a field of a string kind`);
  if (type.uncleanText !== undefined && type.uncleanText !== 'refuse' && type.uncleanText !== 'replace') {
    fail(`${legacy}: uncleanText must be 'refuse' or 'replace'`);
  }
  return { legacy, transport: undefined, v1, fields, fixed, plainText, replacesUncleanText: type.uncleanText === 'replace' };
}
