/**
 * Golden sessions: conversations whose every envelope, final `ChatStateV1`
 * and legacy projection are pinned, covering every capability of the v1
 * contract end to end. They are written by the repository's
 * `scripts/write-golden.mjs` into `fixtures/golden/` and bundled into this
 * package (no file-system access at run time), so a host's client, store or
 * SSE endpoint can replay them in its own CI and compare byte for byte.
 */
import {
  applyChatEvent,
  createChatCodec,
  createChatState,
  parseChatEnvelope,
  parseChatState,
  promptOnlyCardKind,
  type ApplyChatEventResult,
  type CardResponse,
  type ChatChannel,
  type ChatEventEnvelope,
  type ChatRefusal,
  type ChatStateV1,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import files from 'virtual:chat-protocol-golden';

const GOLDEN_SESSION_NAMES = [
  'asked-and-answered',
  'blocks-streamed',
  'cancelled-mid-stream',
  'cancelled-with-late-result',
  'card-answered',
  'card-answered-later',
  'cards-approval-report-prompt',
  'cards-answered',
  'cards-declined',
  'cards-expired',
  'failed-then-retried',
  'interrupted-turn',
  'product-events',
  'resumed-after-disconnect',
  'same-session-provider-x',
  'same-session-provider-y',
  'tool-outcomes',
  'tools-and-sources',
  'upgraded-from-papercup',
  'upgraded-from-scout',
] as const;

/** The name of a golden session; {@link listGoldenSessions} lists them all. */
export type GoldenSessionName = (typeof GOLDEN_SESSION_NAMES)[number];

/** The built-in legacy dialects a golden session may be projected onto or upgraded from. */
export type GoldenLegacyDialect = 'papercup' | 'scout';

const LEGACY_DIALECTS: readonly GoldenLegacyDialect[] = ['papercup', 'scout'];

/** What a golden session is, without its data. */
export interface GoldenSessionInfo {
  readonly name: GoldenSessionName;
  /** One sentence: what happens in the session. */
  readonly title: string;
  /**
   * What the session exercises, sorted. Tags read from the data:
   * `event:<type>`, `tool:<status>`, `turn:<status>`,
   * `card:<kind>:<resolution>` (`unreported` when closed without one, `open`
   * when never closed), `error:retryable`, `error:final`, `grounded-sources`,
   * `multi-turn`, `resumed-from-cursor`, `overlapping-replay`,
   * `upgraded-from:<dialect>`, `legacy-projection:<dialect>`,
   * `product-event:<channel>`; and the
   * session's scenario tags: `blocks-split-while-streaming`,
   * `late-effect-result`, `provider-substitution`, `card-outlives-turn`.
   */
  readonly covers: readonly string[];
  /** The dialects in which every applied envelope has a legacy form, so a projection is pinned. */
  readonly legacyDialects: readonly GoldenLegacyDialect[];
  /** The dialect of the legacy capture the session was upgraded from, or `null`. */
  readonly upgradedFrom: GoldenLegacyDialect | null;
  /**
   * The product events the session carries, by name, with their channels
   * (issue 13): what a reader registers in `createChatCodec({ events })` to
   * replay it. Empty for a session of base events only.
   */
  readonly productEvents: Readonly<Record<string, ChatChannel>>;
}

/** One SSE connection of a session: the `Last-Event-ID` it opened with and what it delivered. */
export interface GoldenConnection {
  readonly lastEventId: string | null;
  readonly envelopes: readonly ChatEventEnvelope[];
}

/** A golden session's data, and what core's reducer makes of it. */
export interface GoldenReplay extends GoldenSessionInfo {
  /** `<name>.jsonl` exactly as shipped: one envelope per line, in delivery order, newline-terminated. */
  readonly jsonl: string;
  /** Every envelope in delivery order; an overlapping replay delivers some twice. */
  readonly envelopes: readonly ChatEventEnvelope[];
  /** The same envelopes, by the connection that delivered them. */
  readonly connections: readonly GoldenConnection[];
  /** What `applyChatEvent` answered for each envelope, in delivery order. */
  readonly outcomes: readonly ('applied' | 'duplicate')[];
  /** The state core's reducer reached from `createChatState(conversationId)`. */
  readonly state: ChatStateV1;
  /** The pinned final state. */
  readonly expectedState: ChatStateV1;
  /** `<name>.state.json` exactly as shipped: `JSON.stringify(expectedState, null, 2)` plus a newline. */
  readonly expectedStateJson: string;
  /**
   * `<name>.history.json` exactly as shipped: the history page a reloaded
   * client renders, `{ turns: historyFromChatState(expectedState), hasMoreEarlier: false }`
   * as `JSON.stringify(page, null, 2)` plus a newline.
   */
  readonly expectedHistoryJson: string;
  /** The pinned legacy projections, as `encodeLegacyChatFrame` writes SSE, by dialect. */
  readonly legacy: Readonly<Partial<Record<GoldenLegacyDialect, string>>>;
  /** The legacy capture the session was upgraded from, as an old backend wrote it, or `null`. */
  readonly capture: string | null;
  /** The answers the person gave to the session's cards, in order. */
  readonly responses: readonly CardResponse[];
}

/** Refusal codes of {@link replayGoldenSession}. */
export type ReplayGoldenSessionRefusalCode = 'unknown-session';

/** The result of {@link replayGoldenSession}. */
export type ReplayGoldenSessionResult = { readonly ok: true; readonly value: GoldenReplay } | ChatRefusal<ReplayGoldenSessionRefusalCode>;

interface ManifestEntry {
  readonly name: GoldenSessionName;
  readonly title: string;
  readonly scenario: readonly string[];
  readonly connections: readonly { readonly lastEventId: string | null; readonly envelopes: number }[];
  readonly responses: readonly CardResponse[];
  readonly upgradedFrom?: { readonly dialect: GoldenLegacyDialect; readonly capture: string };
  readonly productEvents?: Readonly<Record<string, ChatChannel>>;
}

// A session's product events are judged for their bounds only: it pins the
// wire and the state, and names each event's channel.
const ANY_DATA = { '~standard': { version: 1, vendor: 'golden', validate: (value: unknown) => ({ value }) } } as const;

/** The parsers and reducer that read a session: the base ones, or a codec of its product events. */
interface SessionReaders {
  readonly parseChatEnvelope: (input: unknown) => ReturnType<typeof parseChatEnvelope>;
  readonly parseChatState: (input: unknown) => ReturnType<typeof parseChatState>;
  readonly applyChatEvent: (state: ChatStateV1, envelope: ChatEventEnvelope) => ApplyChatEventResult;
}

function readersOf(entry: ManifestEntry): SessionReaders {
  if (entry.productEvents === undefined)
    return { parseChatEnvelope, parseChatState, applyChatEvent: (state, envelope) => applyChatEvent(state, envelope) };
  const events = Object.fromEntries(Object.entries(entry.productEvents).map(([name, channel]) => [name, { schema: ANY_DATA, channel }]));
  const codec = createChatCodec({ events });
  return {
    parseChatEnvelope: codec.parseChatEnvelope as typeof parseChatEnvelope,
    parseChatState: codec.parseChatState as typeof parseChatState,
    applyChatEvent: codec.applyChatEvent as unknown as SessionReaders['applyChatEvent'],
  };
}

// The bundle is this package's own data, checked by its tests: anything
// missing or unreadable in it is a defect of the package, so it throws.
function bundled(file: string): string {
  const text = Object.prototype.hasOwnProperty.call(files, file) ? files[file] : undefined;
  if (text === undefined) throw new Error(`golden file ${file} is missing from the testkit's bundle`);
  return text;
}

// Parsed anew for every call, so no caller can change what the next one gets.
function readManifest(): ReadonlyMap<string, ManifestEntry> {
  return new Map((JSON.parse(bundled('index.json')) as ManifestEntry[]).map((entry) => [entry.name, entry]));
}

function replayEntry(entry: ManifestEntry): GoldenReplay {
  const { parseChatEnvelope, parseChatState, applyChatEvent } = readersOf(entry);
  const jsonl = bundled(`${entry.name}.jsonl`);
  const envelopes = jsonl
    .slice(0, -1)
    .split('\n')
    .map((line, index) => {
      const parsed = parseChatEnvelope(line);
      if (!parsed.ok) throw new Error(`golden ${entry.name}.jsonl line ${index + 1}: ${parsed.code}: ${parsed.message}`);
      return parsed.value;
    });
  let state = createChatState(envelopes[0]?.conversationId ?? '');
  const outcomes = envelopes.map((envelope, index) => {
    const result = applyChatEvent(state, envelope);
    if (!result.ok) throw new Error(`golden ${entry.name}.jsonl line ${index + 1}: ${result.code}: ${result.message}`);
    state = result.state;
    return result.outcome;
  });
  const expectedStateJson = bundled(`${entry.name}.state.json`);
  const expected = parseChatState(expectedStateJson);
  if (!expected.ok) throw new Error(`golden ${entry.name}.state.json: ${expected.code}: ${expected.message}`);

  let delivered = 0;
  const connections = entry.connections.map(({ lastEventId, envelopes: count }) => ({
    lastEventId,
    envelopes: envelopes.slice(delivered, (delivered += count)),
  }));
  const legacy: Partial<Record<GoldenLegacyDialect, string>> = {};
  for (const dialect of LEGACY_DIALECTS) {
    const file = `${entry.name}.${dialect}.sse`;
    if (Object.prototype.hasOwnProperty.call(files, file)) legacy[dialect] = bundled(file);
  }
  const legacyDialects = LEGACY_DIALECTS.filter((dialect) => legacy[dialect] !== undefined);
  const upgradedFrom = entry.upgradedFrom?.dialect ?? null;

  const covers = new Set(entry.scenario);
  for (const { event } of envelopes) {
    covers.add(`event:${event.type}`);
    if (entry.productEvents?.[event.type] !== undefined) covers.add(`product-event:${entry.productEvents[event.type]}`);
    if (event.type === 'tool_result') {
      covers.add(`tool:${event.status}`);
      if (event.blocks?.some((block) => block.sources !== undefined)) covers.add('grounded-sources');
    }
    if (event.type === 'error') covers.add(event.retryable ? 'error:retryable' : 'error:final');
  }
  for (const turn of state.turns) {
    covers.add(`turn:${turn.status}`);
    for (const { card, closed, resolution } of turn.cards) {
      // A prompt-only card (issue 13) is named by how it is answered: prompt-only-plain, -approval, -report.
      covers.add(
        `card:${card.presentation?.kind ?? `prompt-only-${promptOnlyCardKind(card) ?? 'plain'}`}:${closed ? (resolution ?? 'unreported') : 'open'}`,
      );
    }
  }
  if (state.turns.length > 1) covers.add('multi-turn');
  if (connections.some((connection) => connection.lastEventId !== null)) covers.add('resumed-from-cursor');
  if (outcomes.includes('duplicate')) covers.add('overlapping-replay');
  if (upgradedFrom !== null) covers.add(`upgraded-from:${upgradedFrom}`);
  for (const dialect of legacyDialects) covers.add(`legacy-projection:${dialect}`);

  return {
    name: entry.name,
    title: entry.title,
    covers: [...covers].sort(),
    legacyDialects,
    upgradedFrom,
    productEvents: { ...entry.productEvents },
    jsonl,
    envelopes,
    connections,
    outcomes,
    state,
    expectedState: expected.value,
    expectedStateJson,
    expectedHistoryJson: bundled(`${entry.name}.history.json`),
    legacy,
    capture: entry.upgradedFrom === undefined ? null : bundled(entry.upgradedFrom.capture),
    responses: entry.responses,
  };
}

/**
 * Every golden session, by name: what it is, what it covers, and which legacy
 * projections it pins. Fresh objects on every call.
 */
export function listGoldenSessions(): GoldenSessionInfo[] {
  const manifest = readManifest();
  return GOLDEN_SESSION_NAMES.map((name) => {
    const { title, covers, legacyDialects, upgradedFrom, productEvents } = replayEntry(manifest.get(name) as ManifestEntry);
    return { name, title, covers, legacyDialects, upgradedFrom, productEvents };
  });
}

/**
 * Replays the golden session `name` through core's `applyChatEvent` and
 * returns its data with the state reached and the pinned expected state
 * (they are equal: this package's tests hold them to it). A host replays
 * `envelopes` (or `jsonl`, or the `connections` one by one) through its own
 * client, store or endpoint and compares with `expectedState` or, byte for
 * byte, `expectedStateJson`. Never throws for any `name`: an unknown one is
 * refused with `unknown-session`. Fresh objects on every call.
 */
export function replayGoldenSession(name: GoldenSessionName): ReplayGoldenSessionResult {
  const entry =
    typeof name === 'string' && (GOLDEN_SESSION_NAMES as readonly string[]).includes(name) ? readManifest().get(name) : undefined;
  if (entry === undefined) {
    const named = typeof name === 'string' ? `named ${JSON.stringify(name)}` : `named by a value of type ${typeof name}`;
    return refuse('unknown-session', `no golden session is ${named}; the sessions are ${GOLDEN_SESSION_NAMES.join(', ')}`);
  }
  return { ok: true, value: replayEntry(entry) };
}
