/**
 * Closing the log of a turn whose run is gone (DESIGN §11.2): the host that
 * took the turn's cancellation (after a grace period), or that interrupted it
 * past its run lease, writes what the run would have written — a
 * `tool_result` for each call without one, each open card closed, then the
 * terminal `done` — so a client following the turn from any host ends
 * cleanly. It owns only that tail; the cancellation or interruption itself is
 * recovery's, and the event log's seq and event-id uniqueness let exactly one
 * writer commit each frame, however many race to close the turn.
 */
import {
  applyChatEvent,
  createChatState,
  type ChatEventV1,
  type ChatToolCallState,
  type OpenCardSnapshotV1,
} from '@papercusp/chat-protocol-core';
import type { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import type { ChatEventLog, EffectInspection } from '@papercusp/chat-protocol-recovery';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { checkAgentFrame } from './check-agent-frame.js';
import { effectIdFor, readToolOutcome } from './run-tool-step.js';
import { turnFrame } from './turn-frame.js';

/** What closing needs: the turn, a caller with authority over it, and the host's components. */
export interface CloseTurnLogContext {
  readonly conversationId: string;
  readonly turnId: string;
  readonly caller: ChatHostCaller;
  readonly eventLog: ChatEventLog;
  readonly resolver: InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>;
  readonly clock: () => string;
}

/**
 * How the turn ended: its cancellation committed, or it was interrupted, with
 * its effects as recovery's interruption listed them (each call's outcome).
 */
export type TurnLogEnding =
  { readonly status: 'cancelled' } | { readonly status: 'interrupted'; readonly effects: readonly EffectInspection<unknown>[] };

/**
 * How the close went: `closed` (this call wrote the terminal frame),
 * `already-ended` (the log holds one: nothing written), `raced` (another
 * writer took a seq first: it owns the tail), `unavailable` (the log could
 * not be read or folded).
 */
export type CloseTurnLogOutcome = 'closed' | 'already-ended' | 'raced' | 'unavailable';

// How often an interrupter reads the log again after its old run took a seq first (a run stops at its next refused
// append, renewal or poll, so a few rounds are enough); a cancelled turn's run, when it is alive, writes its own tail.
const INTERRUPTED_ATTEMPTS = 5;

type Tail = 'closed' | 'already-ended' | 'raced';

// The tool_result the tail writes for a call without one: for an interruption, what recovery knows of its effect (a
// stored result as it was, `needs-reconciliation` for an admitted effect without one, `cancelled` for one never
// admitted); for a cancellation, `cancelled`.
function toolResultOf(call: ChatToolCallState, ordinal: number, context: CloseTurnLogContext, ending: TurnLogEnding): ChatEventV1 {
  const cancelled = { type: 'tool_result', callId: call.callId, name: call.name, status: 'cancelled' } as const;
  if (ending.status === 'cancelled') return cancelled;
  const effectId = effectIdFor(context.turnId, ordinal);
  const effect = ending.effects.find((candidate) => candidate.effectId === effectId);
  if (effect === undefined || effect.state === 'open') return cancelled;
  if (effect.state !== 'completed') return { ...cancelled, status: 'needs-reconciliation' };
  const { status, summary, blocks } = readToolOutcome(effect.result);
  const result = { ...cancelled, status, ...(summary === undefined ? {} : { summary }), ...(blocks === undefined ? {} : { blocks }) };
  // A stored result core would refuse as a frame is reported by its status alone.
  const checked = checkAgentFrame(turnFrame(context, 1, result as ChatEventV1, context.clock));
  return checked.ok ? checked.value.event : { ...cancelled, status };
}

// One round: read and fold the turn's whole window, then write its tail after the latest frame.
async function writeTail(context: CloseTurnLogContext, ending: TurnLogEnding): Promise<Tail | 'unavailable'> {
  const { conversationId, turnId, eventLog } = context;
  const window = await eventLog.replayWindow({ conversationId, turnId, after: 0 });
  if (window.lowerBound > 0) return 'already-ended';
  let state = createChatState(conversationId);
  for (const frame of window.frames) {
    const applied = applyChatEvent(state, frame);
    if (!applied.ok) return 'unavailable';
    state = applied.state;
  }
  const turn = state.turns.find((candidate) => candidate.turnId === turnId);
  if (turn !== undefined && turn.status !== 'running') return 'already-ended';
  let seq = window.latestSeq;
  const append = async (event: ChatEventV1): Promise<boolean> => {
    seq += 1;
    const appended = await eventLog.append(turnFrame({ conversationId, turnId }, seq, event, context.clock));
    return appended.ok && appended.outcome === 'appended';
  };
  for (const [index, call] of (turn?.toolCalls ?? []).entries()) {
    if (call.result === null && !(await append(toolResultOf(call, index + 1, context, ending)))) return 'raced';
  }
  for (const card of turn?.cards ?? []) {
    if (card.closed) continue;
    const { correlationId } = card.card;
    const request = { caller: context.caller, conversationId, correlationId, at: context.clock() };
    await context.resolver.cancel(request);
    const read = await context.resolver.read(request);
    // An answer that committed first stays the card's resolution; the card this close cancelled says how the turn ended.
    const stored = read.ok && read.record.status !== 'pending' ? read.record.status : 'cancelled';
    const resolution = stored === 'cancelled' ? ending.status : stored;
    if (!(await append({ type: 'card_closed', correlationId, resolution }))) return 'raced';
  }
  return (await append({ type: 'done', status: ending.status })) ? 'closed' : 'raced';
}

/**
 * Closes the turn's log. Call it only after the turn's cancellation or
 * interruption committed. Guarantees: each round reads the turn's whole
 * window and folds it with `applyChatEvent`, writes only after the latest
 * frame, and never writes after a terminal frame (the log refuses it); a call
 * gets one `tool_result` (see {@link TurnLogEnding}); a card it closes is
 * cancelled through the resolver first and closed with the resolution the
 * card's record then holds (an answer that committed first wins), else with
 * the ending's status. A cancelled turn's close stops at the first seq another
 * writer took (`raced`: the run is alive and writes its own tail); an
 * interrupted turn's reads the log again and goes on, a few rounds, since its
 * old run writes nothing once it learns of the interruption. Never rejects.
 */
export async function closeTurnLog(context: CloseTurnLogContext, ending: TurnLogEnding): Promise<CloseTurnLogOutcome> {
  const attempts = ending.status === 'interrupted' ? INTERRUPTED_ATTEMPTS : 1;
  try {
    let outcome: Tail | 'unavailable' = 'raced';
    for (let attempt = 0; attempt < attempts && outcome === 'raced'; attempt += 1) outcome = await writeTail(context, ending);
    return outcome;
  } catch {
    return 'unavailable';
  }
}
