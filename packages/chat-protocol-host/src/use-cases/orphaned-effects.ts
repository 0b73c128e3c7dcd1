/**
 * Recovery's admission lease (DESIGN §6.11) read for the turn-status route: a
 * running turn with an effect admitted past the lease and no result has lost
 * its worker (its host process died, or the effect hangs), so its outcome is
 * unknown. It owns only that question; `inspectTurn` judges the lease and
 * writes nothing.
 */
import type { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import type { ChatHostCaller } from '../chat-host-caller.js';

/**
 * Whether `inspectTurn` lists an effect of the turn as `uncertain` (admitted,
 * no result, past the lease) or `needs-reconciliation`. `false` when the turn
 * cannot be inspected. No side effects; never rejects.
 */
export async function hasOrphanedEffect(
  recovery: TurnRecovery<unknown, ChatHostCaller>,
  request: { readonly caller: ChatHostCaller; readonly conversationId: string; readonly turnId: string },
): Promise<boolean> {
  try {
    const inspected = await recovery.inspectTurn(request);
    return (
      inspected.ok && inspected.value.effects.some((effect) => effect.state === 'uncertain' || effect.state === 'needs-reconciliation')
    );
  } catch {
    return false;
  }
}
