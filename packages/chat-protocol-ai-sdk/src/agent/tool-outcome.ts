/**
 * Both directions between an AI SDK tool's output and the seam's tool outcome: what a tool returned or threw becomes
 * a bounded outcome the host stores (summary and result blocks), and what the host fed back becomes the tool result
 * the model reads. The model always reads the stored outcome, never the raw output, so a retried run sees the same.
 */
import {
  CHAT_LIMITS,
  isSafeJson,
  type ChatAgentFeedback,
  type ChatAgentToolOutcome,
  type ChatResultBlock,
} from '@papercusp/chat-protocol-core';
import type { JSONValue, ToolResultPart } from 'ai';
import { boundedText } from './bounded-text.js';

/** The tool result output the model reads. */
type ModelToolOutput = ToolResultPart['output'];

/** A feedback the host sends after a tool step. */
type ToolResultFeedback = Extract<ChatAgentFeedback, { type: 'tool-result' }>;

/**
 * The outcome of a tool's output: a string is a text block, anything else is JSON (`undefined` as `null`, what
 * `JSON.stringify` makes of it, dates as their strings) carried as a data block when its JSON text fits a text
 * block's bound and is v1 JSON data, else as a text block of that JSON text cut to the bound. The summary is the
 * text or JSON text cut to v1's summary bound. An output `JSON.stringify` cannot write (a cycle, a BigInt, a value
 * that throws when read) succeeds with a summary saying so and no block: the tool ran, its output is not carried.
 */
export function outcomeOfOutput(output: unknown): ChatAgentToolOutcome {
  if (typeof output === 'string') {
    return {
      summary: boundedText(output, CHAT_LIMITS.maxSummaryLength),
      blocks: [{ kind: 'text', text: boundedText(output, CHAT_LIMITS.maxTextLength) }],
    };
  }
  const json = jsonTextOf(output);
  if (json === undefined) return { summary: "the tool's output cannot be written as JSON, so it is not carried" };
  const data = json.length <= CHAT_LIMITS.maxTextLength ? (JSON.parse(json) as unknown) : undefined;
  const block: ChatResultBlock =
    data !== undefined && isSafeJson(data) ? { kind: 'data', data } : { kind: 'text', text: boundedText(json, CHAT_LIMITS.maxTextLength) };
  return { summary: boundedText(json, CHAT_LIMITS.maxSummaryLength), blocks: [block] };
}

/** A failed outcome whose summary is `message`, bounded. */
export function failedOutcome(message: string): ChatAgentToolOutcome {
  return { status: 'failed', summary: boundedText(message, CHAT_LIMITS.maxSummaryLength) };
}

/**
 * What the model reads for a call the host reported: a success as its blocks (one text block as text, one data
 * block as JSON, several as a JSON array of their texts and data) or, without blocks, its summary; a failure as
 * error text; a cancelled call or one whose outcome is unknown (`needs-reconciliation`) as error text that says so.
 */
export function modelOutputOf(feedback: ToolResultFeedback): ModelToolOutput {
  switch (feedback.status) {
    case 'succeeded':
      return succeededOutputOf(feedback.summary, feedback.blocks ?? []);
    case 'failed':
      return { type: 'error-text', value: feedback.summary === '' ? 'the tool failed' : feedback.summary };
    case 'cancelled':
      return { type: 'error-text', value: withSummary('the call was cancelled', feedback.summary) };
    case 'needs-reconciliation':
      return { type: 'error-text', value: withSummary('the outcome of the call is unknown: it may or may not have run', feedback.summary) };
  }
}

function succeededOutputOf(summary: string, blocks: readonly ChatResultBlock[]): ModelToolOutput {
  const [only] = blocks;
  if (only === undefined) return { type: 'text', value: summary };
  if (blocks.length === 1)
    return only.kind === 'text' ? { type: 'text', value: only.text } : { type: 'json', value: jsonValueOf(only.data) };
  return { type: 'json', value: blocks.map((block) => (block.kind === 'text' ? block.text : jsonValueOf(block.data))) };
}

function withSummary(message: string, summary: string): string {
  return summary === '' ? message : `${message} (${summary})`;
}

// A result block's data passed core's v1 JSON check, which is stricter than the AI SDK's JSON value.
function jsonValueOf(data: unknown): JSONValue {
  return data as JSONValue;
}

function jsonTextOf(output: unknown): string | undefined {
  try {
    return JSON.stringify(output) ?? 'null';
  } catch {
    return undefined;
  }
}
