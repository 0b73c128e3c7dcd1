/**
 * The host's side of the AG-UI decoder: its context, read once when the decoder is made (a getter cannot answer one
 * way now and another later), and its callbacks, each called with the context as `this` as the host wrote them. It
 * owns no rule about events: an exception a callback throws propagates, as the decoder's contract says.
 */
import { parseChatEnvelope, type ParseResult } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type {
  AgUiDecoderContext,
  AgUiEnvelopeIdentity,
  AgUiEnvelopeRequest,
  AgUiToolResultRequest,
  ToolResultStatus,
} from './decoder-types.js';

/** The context as the decoder uses it: the conversation and the host's three callbacks, bound to the context. */
export interface DecoderHost<Envelope> {
  readonly conversationId: string;
  readonly identify: (request: AgUiEnvelopeRequest) => AgUiEnvelopeIdentity;
  /** The host's status for a result that states none; `undefined` when it has no mapping or cannot say. */
  readonly toolResultStatus: (request: AgUiToolResultRequest) => ToolResultStatus | undefined;
  readonly parse: (input: unknown) => ParseResult<Envelope>;
}

/**
 * Reads the context once. Throws a `TypeError` when it has no string `conversationId` and `identify` function, or a
 * `toolResultStatus` or `parseChatEnvelope` that is given but not a function: a host misconfigured, not an input.
 */
export function readDecoderHost<Envelope>(context: AgUiDecoderContext<Envelope>): DecoderHost<Envelope> {
  const fields = readFields(context, ['conversationId', 'identify', 'toolResultStatus', 'parseChatEnvelope']);
  const { conversationId, identify, toolResultStatus, parseChatEnvelope: hostParse } = fields ?? {};
  if (
    typeof conversationId !== 'string' ||
    typeof identify !== 'function' ||
    (toolResultStatus !== undefined && typeof toolResultStatus !== 'function') ||
    (hostParse !== undefined && typeof hostParse !== 'function')
  )
    throw new TypeError(
      'createAgUiDecoder needs { conversationId: string, identify: function, toolResultStatus?: function, parseChatEnvelope?: function }',
    );
  return {
    conversationId,
    identify: (request) => identify.call(context, request),
    toolResultStatus: (request) => toolResultStatus?.call(context, request),
    // Without a parser of its own, Envelope is its default, ChatEventEnvelope.
    parse:
      hostParse === undefined
        ? (parseChatEnvelope as (input: unknown) => ParseResult<Envelope>)
        : (input: unknown) => hostParse.call(context, input),
  };
}
