/**
 * AG-UI runs as v1 turns: `RUN_STARTED` opens a run (one at a time: AG-UI runs do not interleave; a run id names one
 * turn), `RUN_FINISHED` makes its `done` (outcome, interrupts as awaited cards, usage) unless a bracket of the run is
 * still open or the encoder marked the turn unended, and `RUN_ERROR` makes its `error`. It owns the open run's record
 * (its open messages, reasoning, calls and announced subagents) and the slot that holds it; what those brackets
 * mean is `message-brackets.ts`' and `tool-calls.ts`', and a run's request is `run-input.ts`'.
 */
import { DONE_STATUSES, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { AgUiLoss } from '../loss.js';
import { readCarried } from '../resume-entries.js';
import type { DecodeAgUiEventRefusalCode } from './decoder-types.js';
import { isOneOf, isRecord, type Fields } from './event-vocabulary.js';
import type { ReducerView } from './reducer-view.js';
import { runInput } from './run-input.js';
import type { Step, TranslatedStep } from './translated-step.js';

/** The AG-UI run open now, with its open brackets. */
export interface OpenRun {
  readonly runId: string;
  // Each open bracket keeps its opener's subagentRunId: a continuation naming another producer is refused.
  readonly text: Map<string, { readonly role: 'assistant' | 'user'; buffer: string; readonly subagent: unknown }>;
  readonly reasoning: Set<string>;
  readonly calls: Map<string, { readonly name: string; args: string; readonly subagent: unknown }>;
  // Announced subagent invocations still running (their events are refused, but the run cannot finish over them).
  readonly subagents: Set<string>;
}

/** Where the decoder holds its open run: a step's `commit` opens or closes it. */
export interface RunSlot {
  current: OpenRun | undefined;
}

// AG-UI 1.0's RUN_FINISHED outcome types.
const OUTCOME_TYPES = new Set(['success', 'cancelled', 'interrupt']);

/** `RUN_STARTED` in the conversation `conversationId`: the step of its request, naming the run it `opens` once made. */
export function runStarted(
  input: Fields,
  conversationId: string,
  view: ReducerView,
  slot: RunSlot,
): (TranslatedStep & { readonly opens: OpenRun }) | ChatRefusal<DecodeAgUiEventRefusalCode> {
  const threadId = input['threadId'];
  const runId = input['runId'];
  if (typeof threadId !== 'string' || typeof runId !== 'string')
    return refuse('invalid-event', 'RUN_STARTED needs a string threadId and runId');
  if (threadId !== conversationId) return refuse('foreign-thread', 'the AG-UI thread is not this conversation');
  if (slot.current !== undefined) return refuse('outside-run', 'a run started before the previous one finished');
  // A run id names one turn: its turn ended, so anything more in it is what the reducer calls turn-terminal.
  if (view.ended(runId)) return refuse('outside-run', `the run ${runId} already finished`);
  const opening: OpenRun = { runId, text: new Map(), reasoning: new Set(), calls: new Map(), subagents: new Set() };
  const request = runInput(input['input'], runId, view);
  return { ...request, opens: opening, commit: () => (slot.current = opening) };
}

/** `RUN_FINISHED` of the open run `current`: its `done`, or none for a turn the encoder marked unended. */
export function runFinished(input: Fields, current: OpenRun, view: ReducerView, slot: RunSlot): Step {
  if (input['runId'] !== current.runId) return refuse('outside-run', 'RUN_FINISHED for another run');
  const open = [...current.text.keys(), ...current.calls.keys(), ...current.subagents];
  if (open.length > 0) return refuse('unclosed-brackets', `RUN_FINISHED while ${open.join(', ')} is still open`);
  // An outcome that is not an object is malformed: reading the run as finished would drop, say, its interrupt.
  if (input['outcome'] !== undefined && !isRecord(input['outcome'])) return refuse('invalid-event', 'a RUN_FINISHED outcome is an object');
  const close = () => (slot.current = undefined);
  const carried = readCarried(input['metadata']);
  const outcome = isRecord(input['outcome']) ? input['outcome'] : undefined;
  const lost: AgUiLoss[] = [];
  // This package's encoder closes the run of a turn that never ended this way (AG-UI runs do not interleave): the
  // turn goes on in v1, so no done is made, and a later run with the same id continues it.
  if (carried?.['turnEnded'] === false) {
    for (const field of ['outcome', 'usage'])
      if (input[field] !== undefined) lost.push({ field, reason: 'the run closed a turn that had not ended: no done is made' });
    return { ok: true, events: [], lost, commit: close };
  }
  if (outcome !== undefined && (typeof outcome['type'] !== 'string' || !OUTCOME_TYPES.has(outcome['type'])))
    lost.push({ field: 'outcome', reason: 'not an AG-UI 1.0 outcome; the run reads as finished without one' });
  const event: Record<string, unknown> = { type: 'done' };
  let foreignInterrupt = false;
  if (outcome?.['type'] === 'interrupt' && Array.isArray(outcome['interrupts'])) {
    const interrupts: unknown[] = outcome['interrupts'];
    const awaiting: string[] = [];
    interrupts.forEach((interrupt, index) => {
      const id = isRecord(interrupt) ? interrupt['id'] : undefined;
      // Only an open card this run asked can be awaited in v1; any other interrupt stops the turn unfinished.
      if (!isRecord(interrupt) || typeof id !== 'string' || !view.awaitable(current.runId, id) || awaiting.includes(id)) {
        foreignInterrupt = true;
        lost.push({
          field: `outcome.interrupts[${index}]`,
          reason: 'it names no open v1 card this run asked (or one named before): v1 cannot show what the run waits for',
        });
        return;
      }
      awaiting.push(id);
      for (const key of Object.keys(interrupt)) {
        if (key !== 'id')
          lost.push({
            field: `outcome.interrupts[${index}].${key}`,
            reason: 'v1 reads an interrupt as the awaited card it names; the card itself carries its prompt',
          });
      }
    });
    if (awaiting.length > 0) event['awaiting'] = awaiting;
  }
  const carriedStatus = carried?.['status'];
  if (isOneOf(carriedStatus, DONE_STATUSES)) event['status'] = carriedStatus;
  else event['status'] = outcome?.['type'] === 'cancelled' ? 'cancelled' : foreignInterrupt ? 'interrupted' : 'completed';
  if (carried?.['stopReason'] !== undefined) event['stopReason'] = carried['stopReason'];
  if (outcome?.['type'] === 'success' && outcome['pendingToolCallIds'] !== undefined) {
    lost.push({ field: 'outcome.pendingToolCallIds', reason: 'v1 has no pending client-side tool calls' });
  }
  if (Array.isArray(input['usage'])) event['usage'] = usageOf(input['usage'], lost);
  return { ok: true, events: [event], lost, commit: close };
}

/** `RUN_ERROR`: the turn's `error`, retryable only when the encoder carried it so; it closes the run. */
export function runError(input: Fields, slot: RunSlot): Step {
  const carried = readCarried(input['metadata']);
  const message = input['message'];
  if (typeof message !== 'string') return refuse('invalid-event', 'RUN_ERROR needs a string message');
  const retryable = carried?.['retryable'] === true;
  const event: Record<string, unknown> = { type: 'error', code: input['code'] ?? 'ag-ui-run-error', message, retryable };
  if (retryable && carried?.['retryAfterMs'] !== undefined) event['retryAfterMs'] = carried['retryAfterMs'];
  return { ok: true, events: [event], lost: [], commit: () => (slot.current = undefined) };
}

/** Subagent lifecycles have no v1 meaning, but a run must not finish while one it announced is still running. */
export function observeSubagent(slot: RunSlot, type: string, input: Fields): void {
  const id = input['subagentRunId'];
  if (slot.current === undefined || typeof id !== 'string') return;
  if (type === 'SUBAGENT_STARTED' && typeof input['name'] === 'string') slot.current.subagents.add(id);
  if (type === 'SUBAGENT_FINISHED' || type === 'SUBAGENT_ERROR') slot.current.subagents.delete(id);
}

function usageOf(entries: readonly unknown[], lost: AgUiLoss[]): Record<string, number> {
  const usage: Record<string, number> = {};
  entries.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    for (const [key, value] of Object.entries(entry)) {
      if ((key === 'inputTokens' || key === 'outputTokens' || key === 'totalTokens') && typeof value === 'number') {
        usage[key] = (usage[key] ?? 0) + value;
      } else {
        lost.push({ field: `usage[${index}].${key}`, reason: 'v1 usage is one total of input, output and total tokens' });
      }
    }
  });
  return usage;
}
