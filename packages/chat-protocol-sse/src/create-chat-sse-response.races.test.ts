import { parseChatSseMessage } from '@papercusp/chat-protocol-core';
import { createFakeChatEventLog, createFakeDatabase } from '@papercusp/chat-protocol-testkit';
import { checkRaces, scheduleChatEventLog, settleRace } from '@papercusp/chat-protocol-testkit/races';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../test-support/property-runs.js';
import { TURN, appendAll, readEventStream, turnOf } from '../test/sse-test-server.js';
import { createChatSseResponse } from './create-chat-sse-response.js';

// (frames stored before the request, the request's cursor, frames in the turn): the cursor below, at and above what is stored.
const CASES = [
  [0, 0, 4],
  [2, 0, 5],
  [2, 2, 5],
  [3, 1, 4],
  [1, 1, 2],
] as const;

describe('createChatSseResponse: appends racing the subscribe-then-replay handoff (DESIGN §10, issue 16)', () => {
  it.each(CASES)(
    'with %i stored and cursor %i, sends every frame after the cursor exactly once, in order, whatever the interleaving (of %i)',
    async (stored, cursor, total) => {
      const frames = turnOf(total, true);
      const failures = await checkRaces(runs(40), async (pacing) => {
        let racing = false;
        const database = createFakeDatabase({
          pause: () => (racing ? pacing.scheduler.schedule(Promise.resolve(), 'fence pause') : undefined),
        });
        const plain = createFakeChatEventLog(database);
        await appendAll(plain, frames.slice(0, stored));
        racing = true;
        const log = scheduleChatEventLog(plain, pacing.scheduler);
        const request = new Request('http://127.0.0.1/turn', { headers: { 'last-event-id': `${TURN.turnId}:${cursor}` } });
        const [response] = await settleRace(
          pacing,
          Promise.all([createChatSseResponse(request, { log, ...TURN }), appendAll(log, frames.slice(stored))]),
        );
        if (response.status !== 200) return [`answered ${response.status}`];
        const read = await readEventStream(response.body as ReadableStream<Uint8Array>);
        const seqs = read.messages.map((message) => {
          const parsed = parseChatSseMessage(message);
          return parsed.ok ? parsed.value.seq : -1;
        });
        const expected = frames.slice(cursor).map((frame) => frame.seq);
        return JSON.stringify(seqs) === JSON.stringify(expected) && read.outcome === 'ended'
          ? []
          : [`sent ${JSON.stringify(seqs)} (${read.outcome}), expected ${JSON.stringify(expected)}`];
      });
      expect(failures).toEqual([]);
    },
  );
});
