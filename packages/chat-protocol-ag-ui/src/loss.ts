/**
 * Loss as data: what a conversion could not carry, named by the field's path
 * in the input (`event.source`, `eventId`, `usage[1].model`) and the reason.
 */

/** One field a conversion could not carry. */
export interface AgUiLoss {
  /** The field's path in the input, dot-separated from the envelope or AG-UI event root. */
  readonly field: string;
  /** Why it was not carried. */
  readonly reason: string;
}
