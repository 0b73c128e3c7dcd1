/**
 * The open-a-turn's-stream use case (the events route, and the peers' routes
 * once their turn is known): the turn must be in the conversation, the caller
 * under its stream limit, then the transport's stream in the asked format. It
 * reads the turn's record only: the event log is read once, by the transport,
 * after it subscribed (DESIGN §10). A follower is one of those who meet an
 * expired run lease (§11.2): a turn whose run is gone is interrupted before its
 * stream opens, and a running one is watched while its stream is open. The
 * caller's authority is the route's first check.
 */
import type { TurnRecord } from '@papercusp/chat-protocol-recovery';
import { createChatSseResponse } from '@papercusp/chat-protocol-sse';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { NOT_FOUND, hostRefusal, type HostResult } from './host-refusal.js';
import type { HostRuntime } from './host-runtime.js';
import { interruptIfRunGone, watchFollowedTurn } from './interrupt-turn.js';
import { peerStreamFraming, type ChatStreamFormat } from './peer-stream.js';

/** The stream to open. */
export interface OpenTurnStreamRequest {
  readonly caller: ChatHostCaller;
  readonly conversationId: string;
  readonly turnId: string;
  /** The request whose cursor (`Last-Event-ID`, `lastEventId`) and signal the stream follows. */
  readonly request: Request;
  /** The format, or `null` for a name the route read that is none (refused once the turn is found). */
  readonly format: ChatStreamFormat | null;
  /** Leave out the turn's `user_input` (a peer's POST-and-stream route). */
  readonly omitUserInput?: boolean;
}

// The turn's record when it is one of this conversation's (`null` otherwise): its record only, no frame.
async function findTurn(runtime: HostRuntime, conversationId: string, turnId: string): Promise<TurnRecord<unknown> | null | 'unavailable'> {
  try {
    const stored = await runtime.store.turnStore.read(turnId);
    return stored !== null && stored.record.conversationId === conversationId ? stored.record : null;
  } catch {
    return 'unavailable';
  }
}

/**
 * The transport's answer for the turn (a stream, a `204`, or its own cursor
 * refusal), holding one of the caller's stream slots while its body is open.
 * Refusals: `store-unavailable` (the turn could not be read, or the stream
 * could not start), `not-found` (no such turn in the conversation),
 * `unsupported-format`, `too-many-streams`. Never rejects.
 */
export async function openTurnStream(runtime: HostRuntime, request: OpenTurnStreamRequest): Promise<HostResult<Response>> {
  const { caller, conversationId, turnId, format } = request;
  const found = await findTurn(runtime, conversationId, turnId);
  if (found === 'unavailable') return hostRefusal('store-unavailable', 'the turn could not be read');
  if (found === null) return NOT_FOUND;
  if (format === null) return hostRefusal('unsupported-format', 'format: expected v1, ag-ui or ai-sdk');
  if (!runtime.streams.acquire(caller)) return hostRefusal('too-many-streams', 'this caller holds too many open streams');
  const turn = { caller, conversationId, turnId };
  // A turn whose run is gone is interrupted and its tail written before the stream reads the log; a running one is
  // watched while the stream is open, so its follower sees the tail when the run's lease runs out.
  await interruptIfRunGone(runtime, turn, found);
  const stopWatching =
    found.status === 'running' && found.run !== undefined ? watchFollowedTurn(runtime, turn, found.run.leaseExpiresAt) : () => undefined;
  const { openStreams } = runtime.lifecycle;
  let ended: () => void = () => undefined;
  const open = { turnId, ended: new Promise<void>((resolve) => (ended = resolve)) };
  openStreams.add(open);
  const onEnd = (): void => {
    stopWatching();
    openStreams.delete(open);
    ended();
  };
  const peer = format === 'v1' ? undefined : peerStreamFraming(format, { omitUserInput: request.omitUserInput === true });
  try {
    const response = await createChatSseResponse(request.request, {
      log: runtime.store.eventLog,
      conversationId,
      turnId,
      ...(runtime.heartbeatMs === undefined ? {} : { heartbeatMs: runtime.heartbeatMs }),
      // A draining host ends its streams with a `retry:` hint once it gave up its runs (and refuses new ones then).
      signal: runtime.lifecycle.streamsEnd.signal,
      ...(peer === undefined ? {} : { framing: peer.framing }),
    });
    // A refusal or a 204 is the transport's answer as it is; only a stream carries the peer's headers.
    if (peer !== undefined && response.status === 200) {
      for (const [name, value] of Object.entries(peer.headers)) response.headers.set(name, value);
    }
    return { ok: true, value: runtime.streams.release(caller, response, onEnd) };
  } catch {
    runtime.streams.release(caller, new Response(null), onEnd);
    return hostRefusal('store-unavailable', 'the stream could not start');
  }
}
