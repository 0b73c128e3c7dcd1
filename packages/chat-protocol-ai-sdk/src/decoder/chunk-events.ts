/**
 * Each meaningful chunk's v1 events: text and reasoning deltas, tool calls and their outcomes (a final output is
 * `succeeded`, an error `failed`, a denial `cancelled`; a preliminary output states no outcome and is refused), an
 * approval request as a confirm card and its response as the card's close, `error`, `finish` and `abort` as the
 * turn's end, and the `data-*` parts of v1 events the stream has no chunk for. It owns that mapping and the tool
 * rules that need the call; placement after earlier envelopes is `placement.ts`'.
 */
import { CHAT_LIMITS, isSafeJson } from '@papercusp/chat-protocol-core';
import type { AiSdkLoss } from '../ui-message-chunk.js';
import { DATA_EVENTS, UNSUPPORTED } from './chunk-vocabulary.js';
import type { ChunkRefusal, TurnPlacement } from './placement.js';
import { isRecord, type Fields } from './read-chunk.js';

/** The code a v1 error decoded from an AI SDK `error` chunk carries (the chunk has none). */
export const AI_SDK_ERROR_CODE = 'ai-sdk-error';

/**
 * The v1 events of a chunk that is neither transport nor a part the decoder holds, or why it is refused. A card made
 * from an approval request is added to `approvalCards`: the decoder dates it with the host's time for its envelope.
 */
export function eventsOf(
  chunk: Fields,
  type: string,
  lost: AiSdkLoss[],
  placement: TurnPlacement,
  approvalCards: WeakSet<object>,
): Record<string, unknown>[] | ChunkRefusal {
  const { calls, cards } = placement;
  const text = (field: string): string | undefined => (typeof chunk[field] === 'string' ? (chunk[field] as string) : undefined);
  const invalid = (field: string) => ({ code: 'invalid-chunk' as const, message: `a ${type} chunk needs a string ${field}` });
  switch (type) {
    case 'text-delta':
    case 'reasoning-delta': {
      const delta = text('delta');
      if (delta === undefined) return invalid('delta');
      return [{ type: type === 'text-delta' ? 'delta' : 'reasoning', text: delta }];
    }
    case 'tool-input-available':
    case 'tool-input-error': {
      const callId = text('toolCallId');
      const name = text('toolName');
      if (callId === undefined) return invalid('toolCallId');
      if (name === undefined) return invalid('toolName');
      if (calls.has(callId)) return { code: 'duplicate-tool-call', message: `tool call ${callId} was already announced` };
      const call =
        chunk['input'] === undefined ? { type: 'tool_call', callId, name } : { type: 'tool_call', callId, name, input: chunk['input'] };
      if (type === 'tool-input-available') return [call];
      const errorText = text('errorText');
      if (errorText === undefined) return invalid('errorText');
      return [call, { type: 'tool_result', callId, name, status: 'failed', error: errorText }];
    }
    case 'tool-output-available':
    case 'tool-output-error':
    case 'tool-output-denied':
    case 'tool-approval-request': {
      const callId = text('toolCallId');
      if (callId === undefined) return invalid('toolCallId');
      const call = calls.get(callId);
      if (call === undefined) return { code: 'unknown-tool-call', message: `no tool-input-available announced call ${callId}` };
      if (type !== 'tool-approval-request' && call.resulted) {
        return { code: 'duplicate-tool-result', message: `tool call ${callId} already has a result` };
      }
      if (type === 'tool-output-available') {
        if (chunk['preliminary'] === true) return { code: 'unknown-status', message: 'a preliminary tool output states no outcome' };
        return [{ type: 'tool_result', callId, name: call.name, status: 'succeeded', ...outputFields(chunk['output']) }];
      }
      if (type === 'tool-output-error') {
        const errorText = text('errorText');
        if (errorText === undefined) return invalid('errorText');
        return [{ type: 'tool_result', callId, name: call.name, status: 'failed', error: errorText }];
      }
      if (type === 'tool-output-denied') return [{ type: 'tool_result', callId, name: call.name, status: 'cancelled' }];
      const approvalId = text('approvalId');
      if (approvalId === undefined) return invalid('approvalId');
      if (cards.has(approvalId)) return [];
      const event = { type: 'card', card: approvalCard(approvalId, call) };
      approvalCards.add(event);
      return [event];
    }
    case 'tool-approval-response': {
      const approvalId = text('approvalId');
      if (approvalId === undefined) return invalid('approvalId');
      if (typeof chunk['approved'] !== 'boolean')
        return { code: 'invalid-chunk', message: 'a tool-approval-response chunk needs a boolean approved' };
      return [{ type: 'card_closed', correlationId: approvalId, resolution: chunk['approved'] ? 'submitted' : 'declined' }];
    }
    case 'error': {
      // An error is never lost: its text is cut to what v1 holds, and an empty one is named.
      const characters = Array.from(text('errorText') ?? '');
      if (characters.length > CHAT_LIMITS.maxSummaryLength) lost.push({ field: 'errorText', reason: 'cut to the v1 message bound' });
      const message = characters.slice(0, CHAT_LIMITS.maxSummaryLength).join('') || 'stream error';
      return [{ type: 'error', code: AI_SDK_ERROR_CODE, message, retryable: false }];
    }
    case 'finish': {
      const reason = text('finishReason');
      return [reason === undefined ? { type: 'done', status: 'completed' } : { type: 'done', status: 'completed', stopReason: reason }];
    }
    case 'abort': {
      const reason = text('reason');
      return [reason === undefined ? { type: 'done', status: 'cancelled' } : { type: 'done', status: 'cancelled', stopReason: reason }];
    }
  }
  const dataEvent = DATA_EVENTS.get(type);
  if (dataEvent !== undefined) {
    const data = chunk['data'];
    if (!isRecord(data)) return invalid('data object');
    return [dataEvent === 'card' ? { type: 'card', card: data } : { ...data, type: dataEvent }];
  }
  return {
    code: 'unsupported-chunk',
    message: UNSUPPORTED.has(type) ? `a ${type} chunk has no v1 meaning` : `unknown chunk type ${type}`,
  };
}

/**
 * A tool output shaped as the encoder writes it (`{ summary?, blocks? }`, a
 * string summary, an array of blocks) gives those fields back; any other JSON
 * output is kept whole as one data block.
 */
function outputFields(output: unknown): Record<string, unknown> {
  if (output === undefined) return {};
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    const { summary, blocks, ...others } = output as Record<string, unknown>;
    const shaped = (summary === undefined || typeof summary === 'string') && (blocks === undefined || Array.isArray(blocks));
    if (shaped && Object.keys(others).length === 0) return { ...(output as Record<string, unknown>) };
  }
  return isSafeJson(output) ? { blocks: [{ kind: 'data', data: output }] } : { blocks: output };
}

function approvalCard(approvalId: string, call: { readonly name: string; readonly input: unknown }): Record<string, unknown> {
  const question = `Allow ${call.name}?`;
  const body = call.input === undefined ? [] : [JSON.stringify(call.input)];
  return {
    correlationId: approvalId,
    createdAt: undefined,
    prompt: question,
    presentation: { kind: 'confirm' },
    approval: { title: call.name, question, body },
    allowDecline: true,
  };
}
