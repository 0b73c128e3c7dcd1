/**
 * The v1 routes of DESIGN §11, under `/v1/conversations/:conversationId`:
 * each reads and checks its request (ids, body, headers), calls one use case
 * and maps its result to HTTP. It owns the order of the checks (every check
 * that needs no grant first, so a refused request claims and writes nothing)
 * and the answers' shapes; what each operation does is its use case's.
 */
import { CardResponseSchema } from '@papercusp/chat-protocol-core';
import { IDEMPOTENCY_KEY_HEADER, isTurnId } from '@papercusp/chat-protocol-recovery';
import type { Hono } from 'hono';
import { answerCard } from '../use-cases/answer-card.js';
import { cancelTurn } from '../use-cases/cancel-turn.js';
import type { HostRuntime } from '../use-cases/host-runtime.js';
import { openTurnStream } from '../use-cases/open-turn-stream.js';
import { readChatStreamFormat } from '../use-cases/peer-stream.js';
import { readState, readTurnStatus } from '../use-cases/read-state.js';
import { checkTurnText, startTurn } from '../use-cases/start-turn.js';
import type { RequestChecks } from './check-request.js';
import { hostRefusalResponse, jsonResponse, notFoundResponse, refusalResponse } from './host-responses.js';
import { isJsonObject, readJsonBody } from './read-json-body.js';

const PREFIX = '/v1/conversations/:conversationId';

/** Adds the v1 routes to `app`; `maxBodyBytes` bounds the POST bodies. */
export function registerV1Routes(app: Hono, runtime: HostRuntime, checks: RequestChecks, maxBodyBytes: number): void {
  const { identify, check } = checks;

  // Every check that needs no grant comes first, so a refused request claims and writes nothing (§11 "The HTTP edge").
  app.post(`${PREFIX}/turns`, async (context) => {
    const identified = await identify(context, []);
    if (identified instanceof Response) return identified;
    const body = await readJsonBody(context.req.raw, maxBodyBytes);
    if (!body.ok) return refusalResponse(body.code, body.message);
    if (!isJsonObject(body.value)) return refusalResponse('invalid-body', 'expected { clientTurnId, text }');
    const { clientTurnId, text, ...rest } = body.value;
    if (Object.keys(rest).length > 0 || !isTurnId(clientTurnId) || typeof text !== 'string') {
      return refusalResponse('invalid-body', 'expected exactly { clientTurnId, text }, clientTurnId of the form turn_<32 hex digits>');
    }
    const badText = checkTurnText(text);
    if (badText !== null) return hostRefusalResponse(badText);
    const key = context.req.header(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return refusalResponse('missing-idempotency-key', `the ${IDEMPOTENCY_KEY_HEADER} header is required`);
    if (key !== clientTurnId) return refusalResponse('idempotency-key-mismatch', `${IDEMPOTENCY_KEY_HEADER} must equal clientTurnId`);
    const started = await startTurn(runtime, { ...identified, clientTurnId, text });
    return started.ok ? jsonResponse(202, started.value) : hostRefusalResponse(started);
  });

  app.get(`${PREFIX}/turns/by-client-id/:clientTurnId`, async (context) => {
    const checked = await check(context, ['clientTurnId']);
    if (checked instanceof Response) return checked;
    const clientTurnId = context.req.param('clientTurnId');
    if (!isTurnId(clientTurnId)) return refusalResponse('invalid-id', 'clientTurnId: expected turn_<32 hex digits>');
    const status = await readTurnStatus(runtime, { ...checked, clientTurnId });
    return status.ok ? jsonResponse(200, status.value) : hostRefusalResponse(status);
  });

  app.get(`${PREFIX}/turns/:turnId/events`, async (context) => {
    const checked = await check(context, ['turnId']);
    if (checked instanceof Response) return checked;
    const turnId = context.req.param('turnId');
    if (turnId === undefined) return notFoundResponse();
    const format = readChatStreamFormat(context.req.raw);
    const stream = await openTurnStream(runtime, { ...checked, turnId, request: context.req.raw, format });
    return stream.ok ? stream.value : hostRefusalResponse(stream);
  });

  app.post(`${PREFIX}/turns/:turnId/cancel`, async (context) => {
    const checked = await check(context, ['turnId']);
    if (checked instanceof Response) return checked;
    const turnId = context.req.param('turnId');
    if (turnId === undefined) return notFoundResponse();
    const cancelled = await cancelTurn(runtime, { ...checked, turnId });
    return cancelled.ok ? jsonResponse(200, cancelled.value) : hostRefusalResponse(cancelled);
  });

  app.post(`${PREFIX}/cards/:correlationId`, async (context) => {
    const checked = await check(context, ['correlationId']);
    if (checked instanceof Response) return checked;
    const correlationId = context.req.param('correlationId');
    const body = await readJsonBody(context.req.raw, maxBodyBytes);
    if (!body.ok) return refusalResponse(body.code, body.message);
    // Strict: a field the contract does not name (a tenant, a principal) is refused, never read.
    const response =
      isJsonObject(body.value) && body.value['correlationId'] === correlationId ? CardResponseSchema.safeParse(body.value) : null;
    if (response === null || !response.success) {
      return refusalResponse('invalid-body', 'expected a CardResponse whose correlationId is the one in the path');
    }
    // Authority is the bearer's, read by the store in the card's transaction; nothing in the body grants it.
    const answered = await answerCard(runtime, { ...checked, response: response.data });
    return answered.ok ? jsonResponse(200, answered.value) : hostRefusalResponse(answered);
  });

  app.get(`${PREFIX}/state`, async (context) => {
    const checked = await check(context, []);
    if (checked instanceof Response) return checked;
    const state = await readState(runtime, checked.conversationId);
    return state.ok ? jsonResponse(200, state.value) : hostRefusalResponse(state);
  });
}
