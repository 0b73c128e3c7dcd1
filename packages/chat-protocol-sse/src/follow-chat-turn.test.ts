import { applyChatEvent, createChatState, type ChatEventEnvelope, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collect, cutEach, cutsArbitrary, frameBoundaries, sampleTurn, useFrameServers } from '../test/frame-server.js';
import { followChatTurn, type FollowChatTurnItem } from './follow-chat-turn.js';

const turn = sampleTurn();
const fast = { attempts: 8, baseDelayMs: 1, maxDelayMs: 4 };
const serverFor = useFrameServers(turn);

function fold(envelopes: readonly ChatEventEnvelope[], state = createChatState('conv_1')): ChatStateV1 {
  return envelopes.reduce((current, envelope) => {
    const applied = applyChatEvent(current, envelope);
    if (!applied.ok) throw new Error(applied.code);
    return applied.state;
  }, state);
}

const cleanState = fold(turn);
const finalState = (items: readonly FollowChatTurnItem[]): ChatStateV1 | undefined => {
  const ended = items[items.length - 1];
  return ended?.type === 'ended' ? ended.state : undefined;
};

describe('followChatTurn folds the stream with applyChatEvent (DESIGN §10)', () => {
  it('surfaces a resumed stream that sends a delivered seq with other content, and keeps the state it folded (issue 24)', async () => {
    const replayed = turn.map((envelope) =>
      envelope.seq === 3 ? { ...envelope, event: { ...envelope.event, summary: 'refusé' } as ChatEventEnvelope['event'] } : envelope,
    );
    const server = await serverFor((index) =>
      index === 0
        ? { kind: 'frames', cutAfterFrames: 3 }
        : index === 1
          ? { kind: 'frames', ignoreCursor: true, envelopes: replayed }
          : { kind: 'frames' },
    );
    const items = await collect(followChatTurn({ url: server.url, conversationId: 'conv_1', retry: fast }));
    expect(items.filter((item) => item.type === 'invalid-frame')).toMatchObject([
      { type: 'invalid-frame', code: 'conflicting-duplicate', id: 'turn_1:3', event: 'tool_result' },
    ]);
    expect(JSON.stringify(finalState(items))).toBe(JSON.stringify(cleanState));
  });

  it('a clean connection yields one state item per envelope and ends terminal with the folded state', async () => {
    const server = await serverFor(() => ({ kind: 'frames' }));
    const items = await collect(followChatTurn({ url: server.url, conversationId: 'conv_1' }));
    expect(items.filter((item) => item.type === 'state').map((item) => item.type === 'state' && item.envelope.seq)).toEqual([
      1, 2, 3, 4, 5, 6, 7,
    ]);
    expect(JSON.stringify(finalState(items))).toBe(JSON.stringify(cleanState));
    expect(items[items.length - 1]).toMatchObject({ type: 'ended', reason: 'terminal', cursor: { turnId: 'turn_1', seq: 7 } });
  });

  it('a client cut off at every frame boundary, next to each, and at every byte of a frame ends with exactly the state of a clean connection (issue 16)', async () => {
    // Every byte of frame 5, whose text holds a four-byte character and a three-byte dash; the property below draws the others.
    const boundaries = frameBoundaries(turn);
    const [start, end] = [boundaries[3]!, boundaries[4]!];
    const inFrame = Array.from({ length: end - start }, (_, index) => start + index);
    const cutPoints = [...new Set([0, ...boundaries.flatMap((at) => [at - 1, at, at + 1]), ...inFrame])];
    for (const at of cutPoints) {
      const server = await serverFor((index) => (index === 0 ? { kind: 'frames', cutAfterBytes: at } : { kind: 'frames' }));
      const items = await collect(followChatTurn({ url: server.url, conversationId: 'conv_1', retry: fast }));
      expect(JSON.stringify(finalState(items))).toBe(JSON.stringify(cleanState));
      await server.close();
    }
  });

  it('several cuts at random bytes, each a reset or a clean end, still end with the clean state', async () => {
    await fc.assert(
      fc.asyncProperty(cutsArbitrary(turn, 5), async (cuts) => {
        const server = await serverFor(cutEach(cuts));
        const items = await collect(followChatTurn({ url: server.url, conversationId: 'conv_1', retry: fast }));
        expect(JSON.stringify(finalState(items))).toBe(JSON.stringify(cleanState));
        await server.close();
      }),
      { numRuns: 30 },
    );
  });

  it('overlap with the given state is absorbed as duplicate: no state item for what the state holds', async () => {
    const server = await serverFor(() => ({ kind: 'frames' }));
    const state = fold(turn.slice(0, 4));
    const items = await collect(followChatTurn({ url: server.url, conversationId: 'conv_1', state, cursor: { turnId: 'turn_1', seq: 2 } }));
    expect(items.filter((item) => item.type === 'state').map((item) => item.type === 'state' && item.envelope.seq)).toEqual([5, 6, 7]);
    expect(JSON.stringify(finalState(items))).toBe(JSON.stringify(cleanState));
  });

  it('a gap between the state and the stream is rejected seq-gap with replayAfter, and the follow ends', async () => {
    const server = await serverFor(() => ({ kind: 'frames' }));
    const items = await collect(followChatTurn({ url: server.url, conversationId: 'conv_1', cursor: { turnId: 'turn_1', seq: 3 } }));
    expect(items.map((item) => item.type)).toEqual(['connected', 'rejected', 'ended']);
    expect(items[1]).toMatchObject({ type: 'rejected', code: 'seq-gap', replayAfter: { turnId: 'turn_1', seq: 0 }, envelope: turn[3] });
    expect(items[2]).toEqual({ type: 'ended', reason: 'rejected', cursor: { turnId: 'turn_1', seq: 3 }, state: createChatState('conv_1') });
  });

  it('other content at a seq the state holds is rejected conflicting-duplicate', async () => {
    const other = turn.map((envelope) =>
      envelope.seq === 4 ? { ...envelope, event: { type: 'delta' as const, text: 'autre chose' } } : envelope,
    );
    const server = await serverFor(() => ({ kind: 'frames' }), other);
    const state = fold(turn.slice(0, 4));
    const items = await collect(followChatTurn({ url: server.url, conversationId: 'conv_1', state, cursor: { turnId: 'turn_1', seq: 3 } }));
    expect(items.find((item) => item.type === 'rejected')).toMatchObject({ code: 'conflicting-duplicate', envelope: other[3] });
    expect(finalState(items)).toBe(state);
  });

  it('a refusal passes through, then ended refused carries the unchanged state', async () => {
    const body = JSON.stringify({ code: 'stale-cursor', lowerBound: 5, latestSeq: 7 });
    const server = await serverFor(() => ({ kind: 'status', status: 410, body }));
    const state = fold(turn.slice(0, 2));
    const items = await collect(followChatTurn({ url: server.url, conversationId: 'conv_1', state, cursor: { turnId: 'turn_1', seq: 2 } }));
    expect(items).toEqual([
      { type: 'refused', status: 410, code: 'stale-cursor', lowerBound: 5, latestSeq: 7 },
      { type: 'ended', reason: 'refused', cursor: { turnId: 'turn_1', seq: 2 }, state },
    ]);
  });

  it('throws TypeError when called with a state of another conversation', () => {
    expect(() => followChatTurn({ url: 'http://127.0.0.1/', conversationId: 'conv_2', state: createChatState('conv_1') })).toThrow(
      TypeError,
    );
  });
});
