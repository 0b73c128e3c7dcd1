/**
 * Who is asking: what the host's `authenticate` resolves from a request's
 * bearer token. It owns the shape only; the host's own grants decide what the
 * caller may see, through the store's grant lookups.
 */
import type { InteractionAuthority } from '@papercusp/chat-protocol-interactions';

/**
 * An authenticated caller: a stable id (per-caller limits count by it, with the
 * whole authority) and the interaction authority the host binds to the cards
 * it opens for this caller.
 * Nothing in a request body ever changes it.
 */
export interface ChatHostCaller extends InteractionAuthority {
  readonly callerId: string;
}
