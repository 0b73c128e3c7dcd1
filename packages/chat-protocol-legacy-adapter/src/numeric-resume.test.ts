import { readdirSync, readFileSync } from 'node:fs';
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../test/sse.js';
import { encodeLegacyChatFrame, papercup, parseLegacyLastEventId, scout, type LegacyDialect, type LegacyFrameIds } from './index.js';

// Issue 13 / DESIGN §5: un-migrated readers resume by number. The client below
// behaves as Papercusp/sse's documented POST reader (`resilientPostStream`,
// README "Framework-free client"), written here from that behaviour: it parses
// every frame, drops `skipEvents` (heartbeat), keeps
// `lastEventId = Math.max(lastEventId, Number(id))` for every frame with an id,
// drops empty and non-JSON data, stops after the first terminal payload, and
// after a dropped connection resumes the same turn (only when the response
// named one) with `Last-Event-ID: String(lastEventId)` when that number is
// truthy and `{ turnId, lastEventId }` in the body, up to five times.

interface Delivered {
  readonly event: string | undefined;
  readonly data: string;
}

interface Request {
  readonly lastEventIdHeader: string | undefined;
  readonly body: { readonly resume: { readonly turnId: string | null; readonly lastEventId: number } | null };
}

/** One connection's response: the SSE text the server wrote before the connection dropped, and the turn-id header. */
interface Response {
  readonly text: string;
  readonly turnId: string;
}

function papercuspClient(
  fetchTurn: (request: Request, attempt: number) => Response,
  isTerminal: (data: unknown) => boolean,
): { readonly delivered: Delivered[]; readonly requests: Request[] } {
  const delivered: Delivered[] = [];
  const requests: Request[] = [];
  let turnId: string | null = null;
  let lastEventId = 0;
  let completed = false;
  const openOnce = (resume: boolean, attempt: number) => {
    const request: Request = {
      lastEventIdHeader: resume && lastEventId ? String(lastEventId) : undefined,
      body: { resume: resume ? { turnId, lastEventId } : null },
    };
    requests.push(request);
    const response = fetchTurn(request, attempt);
    turnId = response.turnId || turnId;
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => events.push(message) });
    parser.feed(response.text);
    // The reader drains a final line by feeding a terminator when the body ends.
    parser.feed('\n');
    for (const event of events) {
      if (event.event !== undefined && ['heartbeat'].includes(event.event)) continue;
      if (event.id != null && event.id !== '') lastEventId = Math.max(lastEventId, Number(event.id));
      if (!event.data) continue;
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        continue;
      }
      delivered.push({ event: event.event, data: event.data });
      if (isTerminal(data)) {
        completed = true;
        return;
      }
    }
  };
  openOnce(false, 0);
  for (let attempt = 1; !completed && turnId && attempt <= 5; attempt++) openOnce(true, attempt);
  return { delivered, requests };
}

// Golden sessions whose every envelope has a legacy form in the dialect (write-golden.mjs writes their projection).
function goldenTurns(dialect: LegacyDialect): { readonly name: string; readonly turn: readonly ChatEventEnvelope[] }[] {
  const golden = new URL('golden/', FIXTURES);
  return readdirSync(golden)
    .filter((file) => file.endsWith(`.${dialect.name}.sse`) && !file.endsWith('.capture.sse'))
    .flatMap((file) => {
      const name = file.slice(0, -`.${dialect.name}.sse`.length);
      const lines = readFileSync(new URL(`${name}.jsonl`, golden), 'utf8')
        .trimEnd()
        .split('\n');
      const turns = new Map<string, Map<number, ChatEventEnvelope>>();
      for (const line of lines) {
        const envelope = JSON.parse(line) as ChatEventEnvelope;
        // An overlapping replay repeats lines: each seq once, in order.
        const turn = turns.get(envelope.turnId) ?? new Map<number, ChatEventEnvelope>();
        turn.set(envelope.seq, envelope);
        turns.set(envelope.turnId, turn);
      }
      return [...turns.values()].map((turn) => ({ name, turn: [...turn.values()].sort((a, b) => a.seq - b.seq) }));
    });
}

const HEARTBEAT = 'event: heartbeat\ndata: {"tsMs":1796029200000}\n\n';

/**
 * The host's legacy route: a heartbeat at open (as @papercusp/sse writes one),
 * then the turn's envelopes after the resume point, projected down, a heartbeat
 * between frames. A numeric resume point comes from the header, else from the
 * body's `lastEventId`; a header it cannot read replays the whole turn.
 */
function legacyRoute(turn: readonly ChatEventEnvelope[], dialect: LegacyDialect, ids: LegacyFrameIds) {
  return (request: Request): string => {
    const after = parseLegacyLastEventId(request.lastEventIdHeader) ?? parseLegacyLastEventId(request.body.resume?.lastEventId) ?? 0;
    let text = HEARTBEAT;
    for (const envelope of turn) {
      if (envelope.seq <= after) continue;
      const encoded = encodeLegacyChatFrame(envelope, { dialect, ids });
      if (!encoded.ok) throw new Error(`${envelope.event.type}: ${encoded.code}`);
      text += encoded.sse + HEARTBEAT;
    }
    return text;
  };
}

const terminalOf = (dialect: LegacyDialect) =>
  dialect === scout
    ? (data: unknown) => ['done', 'error'].includes((data as { type?: unknown }).type as string)
    : // Papercup data does not name its type: the reader sees a terminal payload only by its fields (never here), so it resumes until its budget is spent.
      () => false;

/** What the client should show: every frame of the turn once, in order. */
function expected(turn: readonly ChatEventEnvelope[], dialect: LegacyDialect): Delivered[] {
  return turn.map((envelope) => {
    const encoded = encodeLegacyChatFrame(envelope, { dialect, ids: 'seq' });
    if (!encoded.ok) throw new Error(encoded.code);
    return { event: encoded.frame.event, data: encoded.frame.data };
  });
}

/** Replays a turn to the client with connection `n` cut after `cuts[n]` characters (a later connection runs to the end). */
function resumeWith(turn: readonly ChatEventEnvelope[], dialect: LegacyDialect, ids: LegacyFrameIds, cuts: readonly number[]) {
  const route = legacyRoute(turn, dialect, ids);
  return papercuspClient((request, attempt) => {
    const text = route(request);
    const cut = cuts[attempt];
    return { text: cut === undefined ? text : text.slice(0, cut), turnId: turn[0]?.turnId ?? '' };
  }, terminalOf(dialect));
}

describe.each([papercup, scout])('a Papercusp SSE client resumes from our $name projection (issue 13, DESIGN §5)', (dialect) => {
  const turns = goldenTurns(dialect);

  it('projects numeric, increasing ids (the turn seq) with ids: seq, and the v1 cursor by default', () => {
    expect(turns.length).toBeGreaterThan(0);
    for (const { turn } of turns) {
      const numeric = turn.map(
        (envelope) => (encodeLegacyChatFrame(envelope, { dialect, ids: 'seq' }) as { frame: { id: string } }).frame.id,
      );
      expect(numeric).toEqual(turn.map((envelope) => String(envelope.seq)));
      const cursors = turn.map((envelope) => (encodeLegacyChatFrame(envelope, { dialect }) as { frame: { id: string } }).frame.id);
      expect(cursors).toEqual(turn.map((envelope) => `${envelope.turnId}:${envelope.seq}`));
    }
  });

  it('loses and repeats no frame wherever the first connection drops (every cut point of one golden turn)', () => {
    const { turn } = turns.find(({ turn }) => turn.length >= 3) ?? (turns[0] as (typeof turns)[number]);
    const length = legacyRoute(turn, dialect, 'seq')({ lastEventIdHeader: undefined, body: { resume: null } }).length;
    for (let cut = 0; cut <= length; cut++) {
      expect(resumeWith(turn, dialect, 'seq', [cut]).delivered).toEqual(expected(turn, dialect));
    }
  });

  it('loses and repeats no frame across up to four drops, in every golden turn (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...turns), fc.array(fc.nat({ max: 4000 }), { maxLength: 4 }), ({ turn }, cuts) => {
        expect(resumeWith(turn, dialect, 'seq', cuts).delivered).toEqual(expected(turn, dialect));
      }),
      { numRuns: 200 },
    );
  });

  it('sends back the highest seq it saw as Last-Event-ID, which parseLegacyLastEventId reads', () => {
    const { turn } = turns[0] as (typeof turns)[number];
    const route = legacyRoute(turn, dialect, 'seq');
    const full = route({ lastEventIdHeader: undefined, body: { resume: null } });
    // Cut just after the second frame's blank line.
    const second = expected(turn, dialect)[1] as Delivered;
    const cut = full.indexOf(second.data) + second.data.length + 2;
    const { requests } = resumeWith(turn, dialect, 'seq', [cut]);
    expect(requests[1]).toEqual({ lastEventIdHeader: '2', body: { resume: { turnId: turn[0]?.turnId, lastEventId: 2 } } });
  });

  it('with cursor ids the same client reads NaN, never resumes, and repeats frames: why ids: seq exists', () => {
    const { turn } = turns.find(({ turn }) => turn.length >= 3) ?? (turns[0] as (typeof turns)[number]);
    const full = legacyRoute(turn, dialect, 'cursor')({ lastEventIdHeader: undefined, body: { resume: null } });
    const { delivered, requests } = resumeWith(turn, dialect, 'cursor', [Math.floor(full.length / 2)]);
    expect(requests[1]).toEqual({ lastEventIdHeader: undefined, body: { resume: { turnId: turn[0]?.turnId, lastEventId: Number.NaN } } });
    expect(delivered.length).toBeGreaterThan(turn.length);
  });
});

describe('parseLegacyLastEventId reads only a canonical non-negative safe integer (issue 13)', () => {
  it.each([
    ['7', 7],
    ['0', 0],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    [7, 7],
    [0, 0],
  ] as const)('reads %j as %j', (value, seq) => {
    expect(parseLegacyLastEventId(value)).toBe(seq);
  });

  it.each([
    '9007199254740992',
    '99999999999999999999',
    '-1',
    '1e3',
    '01',
    '00',
    ' 5',
    '5 ',
    '+5',
    '0x10',
    '1.5',
    '1.0',
    '',
    'NaN',
    'Infinity',
    'turn_1:3',
    'a:5',
    ':5',
    '٣',
    -1,
    -0,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.MAX_SAFE_INTEGER + 1,
    null,
    undefined,
    true,
    [5],
    { seq: 5 },
    5n,
  ])('refuses %s with null', (value) => {
    expect(parseLegacyLastEventId(value)).toBeNull();
  });

  it('never throws and reads back every seq it is given as text (property)', () => {
    fc.assert(
      fc.property(
        fc.anything(),
        (value) => parseLegacyLastEventId(value) === null || typeof value === 'number' || typeof value === 'string',
      ),
    );
    fc.assert(fc.property(fc.maxSafeNat(), (seq) => parseLegacyLastEventId(String(seq)) === seq));
  });
});
