/**
 * AG-UI tool calls in the open run: `TOOL_CALL_START` and `TOOL_CALL_ARGS` buffer a call, `TOOL_CALL_END` makes its
 * v1 `tool_call` (arguments that are not JSON are `invalid-tool-arguments`, and the call is never made), and
 * `TOOL_CALL_RESULT` its `tool_result`, whose status is the one the encoder carried or the host's mapping gives:
 * never invented. It owns the calls' entries in the run's record and their status rule; which calls the turn made
 * and answered is the reducer view's.
 */
import { TOOL_RESULT_STATUSES } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { AgUiLoss } from '../loss.js';
import { readCarried } from '../resume-entries.js';
import { isOneOf, isRecord, lookup, sameProducer, type Fields } from './event-vocabulary.js';
import type { DecoderHost } from './host-context.js';
import type { ReducerView } from './reducer-view.js';
import type { OpenRun } from './run-brackets.js';
import type { Step } from './translated-step.js';

/** `TOOL_CALL_START`: opens a call the run's turn has not made. */
export function toolCallStart(input: Fields, current: OpenRun, view: ReducerView): Step {
  const toolCallId = input['toolCallId'];
  const name = input['toolCallName'];
  if (typeof toolCallId !== 'string' || typeof name !== 'string')
    return refuse('invalid-event', 'TOOL_CALL_START needs a string toolCallId and toolCallName');
  // A call id names one call of the turn: a second START (open or made) would be a tool call the reducer refuses.
  if (current.calls.has(toolCallId) || view.callName(current.runId, toolCallId) !== undefined)
    return refuse('duplicate-tool-call', `the call ${toolCallId} was already started in this run`);
  current.calls.set(toolCallId, { name, args: '', subagent: input['subagentRunId'] });
  return { ok: true, events: [], lost: [] };
}

/** `TOOL_CALL_ARGS`: more of an open call's arguments. */
export function toolCallArgs(input: Fields, current: OpenRun): Step {
  const call = lookup(current.calls, input['toolCallId']);
  if (call === undefined) return refuse('unknown-tool-call', 'TOOL_CALL_ARGS for a call that was not started');
  if (typeof input['delta'] !== 'string') return refuse('invalid-event', 'TOOL_CALL_ARGS needs a string delta');
  if (!sameProducer(input, call.subagent)) return refuse('invalid-event', 'its subagentRunId does not match its call opener');
  call.args += input['delta'];
  return { ok: true, events: [], lost: [] };
}

/** `TOOL_CALL_END`: closes the call and makes its `tool_call` with its arguments as JSON. */
export function toolCallEnd(input: Fields, current: OpenRun): Step {
  const toolCallId = input['toolCallId'];
  const call = lookup(current.calls, toolCallId);
  if (typeof toolCallId !== 'string' || call === undefined)
    return refuse('unknown-tool-call', 'TOOL_CALL_END for a call that was not started');
  if (!sameProducer(input, call.subagent)) return refuse('invalid-event', 'its subagentRunId does not match its call opener');
  // The END closes the bracket whatever follows; the call is made (and its result placeable) only once its
  // tool_call envelope is emitted.
  current.calls.delete(toolCallId);
  const event: Record<string, unknown> = { type: 'tool_call', callId: toolCallId, name: call.name };
  if (call.args !== '') {
    try {
      event['input'] = JSON.parse(call.args) as unknown;
    } catch {
      return refuse('invalid-tool-arguments', 'the tool call arguments are not JSON');
    }
  }
  return { ok: true, events: [event], lost: [] };
}

/** `TOOL_CALL_RESULT`: the `tool_result` of a call this run made and has not answered, with a stated status. */
export function toolCallResult<Envelope>(input: Fields, current: OpenRun, view: ReducerView, host: DecoderHost<Envelope>): Step {
  const toolCallId = input['toolCallId'];
  if (typeof toolCallId !== 'string') return refuse('unknown-tool-call', 'TOOL_CALL_RESULT for a call this stream did not make');
  // A result for a call this run did not make (another run's: AG-UI's client-side tools; a refused one; none) or
  // already answered is one the reducer refuses: the view names which.
  const call = view.resultFor(current.runId, toolCallId);
  if (!call.ok) return call;
  const { name } = call;
  const carried = readCarried(input['metadata']);
  const carriedStatus = carried?.['status'];
  const status = isOneOf(carriedStatus, TOOL_RESULT_STATUSES)
    ? carriedStatus
    : host.toolResultStatus({ toolCallId, toolName: name, content: input['content'], metadata: input['metadata'] });
  if (status === undefined)
    return refuse('unknown-tool-status', 'the AG-UI tool result does not say whether it succeeded, and the host gave no mapping');
  const lost: AgUiLoss[] = [];
  const summary = contentText(input['content'], lost);
  const event: Record<string, unknown> = { type: 'tool_result', callId: toolCallId, name, status };
  if (summary !== '') event['summary'] = summary;
  if (carried?.['error'] !== undefined) event['error'] = carried['error'];
  return { ok: true, events: [event], lost };
}

function contentText(content: unknown, lost: AgUiLoss[]): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: unknown[] = content;
  let text = '';
  parts.forEach((part, index) => {
    if (isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string') text += part['text'];
    else lost.push({ field: `content[${index}]`, reason: 'v1 tool results summarise in text; media parts are not carried' });
  });
  return text;
}
