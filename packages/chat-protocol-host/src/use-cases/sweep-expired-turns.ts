/**
 * The sweeper's use case (DESIGN §11.2; the command runs it every lease
 * period): walk the store's running turns in pages and interrupt each one
 * whose run lease ran out, writing its tail — so a turn whose process died
 * ends even when nobody follows it, asks its status or resends it. It owns
 * the walk; interrupting is `interrupt-turn.ts`'s, and who may act for a
 * conversation is the host's to say (`callerOf`).
 */
import type { ChatHostCaller } from '../chat-host-caller.js';
import type { HostRuntime } from './host-runtime.js';
import { interruptTurn, needsInterruption } from './interrupt-turn.js';

/** What {@link sweepExpiredTurns} takes. */
export interface ChatHostSweepOptions {
  /**
   * The caller whose authority interrupts a conversation's turn (its owner, say): every store write of the
   * interruption is authorized as for any other caller. `null` (or a throw) leaves the turn to whoever meets it.
   */
  readonly callerOf: (conversationId: string) => ChatHostCaller | null | Promise<ChatHostCaller | null>;
}

/**
 * What a sweep did: `interrupted` turns (their tails written), and `skipped` ones whose lease ran out but that
 * could not be interrupted now (no caller, recovery's refusal, a store that did not answer); or a refusal:
 * `sweep-unsupported` (the store lists no running turns), `store-unavailable` (a page could not be read).
 */
export type ChatHostSweepResult =
  | { readonly ok: true; readonly interrupted: number; readonly skipped: number }
  | { readonly ok: false; readonly code: 'sweep-unsupported' | 'store-unavailable'; readonly message: string };

// Running turns read per page.
const SWEEP_PAGE = 100;

// The caller `callerOf` names for the conversation; `null` for none or a throw.
async function callerFor(options: ChatHostSweepOptions, conversationId: string): Promise<ChatHostCaller | null> {
  try {
    return (await options.callerOf(conversationId)) ?? null;
  } catch {
    return null;
  }
}

/**
 * Sweeps once. Guarantees: every running turn the store lists is judged on
 * the host's clock; each past its lease is interrupted under its
 * conversation's caller, whatever other sweepers, followers or routes race it
 * (recovery's fence lets one interrupt commit, and the log one tail); a turn
 * whose run still holds its lease is left alone. Reads in pages of 100. Never rejects.
 */
export async function sweepExpiredTurns(runtime: HostRuntime, options: ChatHostSweepOptions): Promise<ChatHostSweepResult> {
  const { turnStore } = runtime.store;
  if (turnStore.listRunningTurns === undefined) {
    return { ok: false, code: 'sweep-unsupported', message: "the store's turn store cannot list its running turns" };
  }
  let interrupted = 0;
  let skipped = 0;
  let afterTurnId: string | undefined;
  for (;;) {
    let page;
    try {
      page = await turnStore.listRunningTurns(afterTurnId === undefined ? { limit: SWEEP_PAGE } : { afterTurnId, limit: SWEEP_PAGE });
    } catch {
      return { ok: false, code: 'store-unavailable', message: "the store's running turns could not be read" };
    }
    if (page.length === 0) return { ok: true, interrupted, skipped };
    for (const { record } of page) {
      afterTurnId = record.turnId;
      if (!needsInterruption(record, runtime.clock())) continue;
      const { conversationId, turnId } = record;
      const caller = await callerFor(options, conversationId);
      const outcome = caller === null ? 'skipped' : await interruptTurn(runtime, { caller, conversationId, turnId });
      if (outcome === 'interrupted') interrupted += 1;
      else if (outcome !== 'lease-held' && outcome !== 'not-running') skipped += 1;
    }
  }
}
