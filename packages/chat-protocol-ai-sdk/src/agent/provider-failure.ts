/**
 * Which errors of a model call end the turn as a `fail` step, with the retry permission the AI SDK states, and which
 * are bugs the agent lets propagate (the host ends the turn `agent-failed` and reports the error). It owns that line
 * and the reading of `retry-after`; it does not retry.
 */
import { CHAT_LIMITS, type ChatAgentStep } from '@papercusp/chat-protocol-core';
import { APICallError, RetryError } from 'ai';
import type { AiSdkChatAgentFailCode } from './agent-types.js';

/** The `fail` step of a provider error. */
type ProviderFailStep = Extract<ChatAgentStep, { type: 'fail' }> & { readonly code: AiSdkChatAgentFailCode };

const HTTP_STATUS_TOO_MANY_REQUESTS = 429;
const DECIMAL = /^\d+(?:\.\d+)?$/;

/**
 * The `fail` step of an error a model call streamed, or `undefined` when it is not a provider's:
 * - an `APICallError` (also the last error of a `RetryError`, once the AI SDK's own retries ran out) is
 *   `provider-rate-limited` for HTTP 429, else `provider-failed`; `retryable` is its `isRetryable`, and a
 *   retryable one carries `retryAfterMs` from its `retry-after-ms` header (milliseconds) or `retry-after`
 *   (seconds, or an HTTP date), capped at v1's bound of one day;
 * - a value that is not an `Error` (the error event a provider's stream carries, such as an overload reported
 *   mid-stream) is `provider-failed`, not retryable: no retry permission is stated, so none is assumed;
 * - any other `Error` (a missing API key, an invalid prompt, a bug in a provider) is not a provider's answer.
 * The message names the kind and the HTTP status only: a provider's text may carry account details, so it reaches
 * the options' `onProviderError`, never the wire (the AI SDK masks it from clients by default too).
 */
export function providerFailStepOf(error: unknown, now: number): ProviderFailStep | undefined {
  const callError = APICallError.isInstance(error)
    ? error
    : RetryError.isInstance(error) && APICallError.isInstance(error.lastError)
      ? error.lastError
      : undefined;
  if (callError !== undefined) {
    const status = callError.statusCode;
    const rateLimited = status === HTTP_STATUS_TOO_MANY_REQUESTS;
    const message = rateLimited
      ? 'The model provider is rate limiting requests (HTTP 429).'
      : `The model provider call failed${status === undefined ? '' : ` (HTTP ${status})`}.`;
    const retryAfterMs = callError.isRetryable ? retryAfterMsOf(callError.responseHeaders, now) : undefined;
    return {
      type: 'fail',
      code: rateLimited ? 'provider-rate-limited' : 'provider-failed',
      message,
      retryable: callError.isRetryable,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  if (error instanceof Error) return undefined;
  return { type: 'fail', code: 'provider-failed', message: 'The model provider reported an error while streaming.', retryable: false };
}

/** The wait a response's headers ask for, in whole milliseconds within v1's bound, or `undefined` when they ask none. */
function retryAfterMsOf(headers: Readonly<Record<string, string>> | undefined, now: number): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = headerOf(headers, 'retry-after-ms');
  if (milliseconds !== undefined && DECIMAL.test(milliseconds)) return boundedWait(Number(milliseconds));
  const retryAfter = headerOf(headers, 'retry-after');
  if (retryAfter === undefined) return undefined;
  if (DECIMAL.test(retryAfter)) return boundedWait(Number(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : boundedWait(date - now);
}

function headerOf(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name && typeof value === 'string') return value.trim();
  return undefined;
}

function boundedWait(milliseconds: number): number {
  return Math.min(Math.max(Math.ceil(milliseconds), 0), CHAT_LIMITS.maxRetryAfterMs);
}
