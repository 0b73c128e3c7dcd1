/**
 * The codes a response to a card is refused with: by `validate-card-response.ts`
 * for the response itself, its card and its timing, and by the kind rules
 * (`card-kind-rules.ts`) for its value. One list both import, so neither
 * module needs the other's.
 */

/**
 * Why `validateCardResponse` or a codec's `validateResponse` refused a response:
 * - `invalid-card`: the card given is not a valid card of the codec (a caller's mistake);
 * - `invalid-response`: not a strict `{ action, correlationId, value? }` response;
 * - `wrong-card`: the response answers another card (correlation ids differ);
 * - `invalid-time`: the `at` given is not an RFC 3339 timestamp with an offset;
 * - `expired`: `at` is at or after the card's deadline (`cardDeadline`:
 *   `expiresAt`, else `createdAt + timeoutMs`), whatever the action;
 * - `decline-not-allowed`: a decline on a card without `allowDecline: true`;
 * - `invalid-value`: the value does not have the kind's shape or exceeds a
 *   protocol bound (an unreal date, text past `CARD_LIMITS.maxTextAnswerLength`,
 *   a non-finite number), or a product kind's `validate` returned issues;
 * - `unknown-option`, `duplicate-option`: an option id not on the card, or twice;
 * - `too-few-options`, `too-many-options`: a checkbox selection outside
 *   `minSelected` (default 0) … `maxSelected` (default every option);
 * - `text-too-short`, `text-too-long`: outside the card's `minLength`/`maxLength`;
 * - `out-of-range`: a slider value or date outside the card's `min`/`max`;
 * - `off-step`: a slider value not on `min + k × step`.
 */
export type CardResponseRefusalCode =
  | 'invalid-card'
  | 'invalid-response'
  | 'wrong-card'
  | 'invalid-time'
  | 'expired'
  | 'decline-not-allowed'
  | 'invalid-value'
  | 'unknown-option'
  | 'duplicate-option'
  | 'too-few-options'
  | 'too-many-options'
  | 'text-too-short'
  | 'text-too-long'
  | 'out-of-range'
  | 'off-step';
