/**
 * The checks every route makes before its use case, the v1 routes and the
 * peers' alike: the caller from `authenticate` (401), the route ids (400
 * `invalid-id`), then the caller's current authority to the conversation
 * (the not-found answer). It owns the order of those checks; what a grant is
 * is the store's.
 */
import type { Context } from 'hono';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { isRouteId } from './route-ids.js';
import type { HostRuntime } from '../use-cases/host-runtime.js';
import { notFoundResponse, refusalResponse } from './host-responses.js';

/** Who calls, on which conversation. */
interface CheckedRequest {
  readonly caller: ChatHostCaller;
  readonly conversationId: string;
}

/** The checks, bound to one host's authentication and runtime. */
export interface RequestChecks {
  /** The caller, or `null` for no caller, a non-object or a throw: every route's 401. Never rejects. */
  readonly authenticate: (request: Request) => Promise<ChatHostCaller | null>;
  /** The caller and the route's `conversationId` with the other `ids` checked, before any grant is read. */
  readonly identify: (context: Context, ids: readonly string[]) => Promise<CheckedRequest | Response>;
  /** {@link RequestChecks.identify}, then the caller's current authority to the conversation. */
  readonly check: (context: Context, ids: readonly string[]) => Promise<CheckedRequest | Response>;
}

/** Builds the checks over the host's `authenticate` and the runtime's grant lookup. */
export function createRequestChecks(
  runtime: HostRuntime,
  authenticateCaller: (request: Request) => ChatHostCaller | null | Promise<ChatHostCaller | null>,
): RequestChecks {
  const authenticate = async (request: Request): Promise<ChatHostCaller | null> => {
    try {
      const caller = await authenticateCaller(request);
      return caller !== null && typeof caller === 'object' ? caller : null;
    } catch {
      return null;
    }
  };
  const identify = async (context: Context, ids: readonly string[]): Promise<CheckedRequest | Response> => {
    const caller = await authenticate(context.req.raw);
    if (caller === null) return refusalResponse('unauthenticated', 'a bearer token is required');
    const conversationId = context.req.param('conversationId');
    for (const name of ['conversationId', ...ids]) {
      if (!isRouteId(context.req.param(name))) return refusalResponse('invalid-id', `${name}: expected letters, digits, _ or -`);
    }
    return conversationId === undefined ? notFoundResponse() : { caller, conversationId };
  };
  const check = async (context: Context, ids: readonly string[]): Promise<CheckedRequest | Response> => {
    const identified = await identify(context, ids);
    if (identified instanceof Response) return identified;
    return (await runtime.authorized(identified.caller, identified.conversationId)) ? identified : notFoundResponse();
  };
  return { authenticate, identify, check };
}
