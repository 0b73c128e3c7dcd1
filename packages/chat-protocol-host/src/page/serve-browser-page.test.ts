/**
 * The browser page's route (DESIGN §11): `GET /` answers the page without
 * auth, under a Content-Security-Policy that pins its inline script and style
 * by SHA-256 and requires Trusted Types; the API routes keep their auth. Also
 * the page's pure readers: its URL fragment and the `GET /state` answer.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyHostileArgument, syncOutcomeOf } from '../../../../test-support/hostile-values.js';
import { readConversationSnapshot } from './browser/conversation-snapshot.js';
import { conversationFragment, readFragmentSession } from './browser/page-session.js';
import { call, openTestStore, startHost, type Host, type TestStore } from '../loopback-host.testing.js';

let testStore: TestStore;
let host: Host;
beforeAll(async () => {
  testStore = await openTestStore();
  host = await startHost(testStore);
}, 60_000);
afterAll(() => testStore.close());

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const inline = (html: string, tag: string): string => {
  const found = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html)?.[1];
  if (found === undefined) throw new Error(`no <${tag}>`);
  return found;
};

describe('GET / serves the browser page (DESIGN §11)', () => {
  it('§11 GET / needs no bearer token and answers 200 text/html with nosniff, no referrer, no framing', async () => {
    const response = await fetch(`${host.base}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const html = await response.text();
    expect(html.startsWith('<!doctype html>')).toBe(true);
  });

  it('§11 the policy lets exactly the inline script and style run (by SHA-256), connects only to this origin, requires Trusted Types', async () => {
    const response = await fetch(`${host.base}/`);
    const html = await response.text();
    const script = inline(html, 'script');
    const style = inline(html, 'style');
    expect(response.headers.get('content-security-policy')).toBe(
      [
        "default-src 'none'",
        `script-src ${sha256(script)}`,
        `style-src ${sha256(style)}`,
        "connect-src 'self'",
        "img-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
        "require-trusted-types-for 'script'",
        "trusted-types 'none'",
      ].join('; '),
    );
    // Inline is safe only if the bundle cannot end its own element or open an HTML comment.
    expect(/<\/script|<!--/i.test(script)).toBe(false);
    // The bundle was built (minified, one line), never the placeholder.
    expect(script.length).toBeGreaterThan(10_000);
    expect(script).not.toContain('__CHAT_HOST_BROWSER_PAGE_SCRIPT__');
  });

  it('§11 the API routes keep their auth: without a token they are 401, and POST / is 405 with the page’s Allow (issue 24)', async () => {
    expect(await call(host, 'GET', '/v1/conversations/c_ana_x/turns/by-client-id/turn_00000000000000000000000000000000', null)).toEqual({
      status: 401,
      body: { code: 'unauthenticated', message: 'a bearer token is required' },
    });
    expect(await call(host, 'POST', '/', null, {})).toEqual({
      status: 405,
      body: { code: 'method-not-allowed', message: 'this path allows GET, HEAD, OPTIONS' },
    });
  });
});

describe('the page reads its token from the URL fragment (never sent to the server)', () => {
  it.each([
    ['#token=token-ana&conversation=c_ana_1', { token: 'token-ana', conversationId: 'c_ana_1' }],
    ['#token=a%20b', { token: 'a b' }],
    ['#conversation=c_1&token=', { conversationId: 'c_1' }],
    ['', {}],
    ['#', {}],
  ])('issue 17: readFragmentSession(%j) reads the token and conversation the fragment holds', (hash, expected) => {
    expect(readFragmentSession(hash)).toEqual(expected);
  });
});

describe('the address bar keeps the conversation, never the token (issue 24)', () => {
  it.each([
    ['c_ana_1', '#conversation=c_ana_1'],
    ['c a&b=#', '#conversation=c+a%26b%3D%23'],
    ['', ''],
  ])('issue 24: conversationFragment(%j) is %j, and readFragmentSession reads the conversation back without a token', (id, fragment) => {
    expect(conversationFragment(id)).toBe(fragment);
    expect(readFragmentSession(fragment)).toEqual(id === '' ? {} : { conversationId: id });
  });
});

describe('the page reads the GET /state answer it draws and resumes (issue 24)', () => {
  const state = { schemaVersion: 1, conversationId: 'c_ana_1', turns: [] };
  const body = { state, running: [{ turnId: 'turn_a:b', cursor: 'turn_a:b:7' }], pruned: [{ turnId: 'turn_old', lastSeq: 3 }] };

  it('issue 24: a state answer gives the state, each running turn as a cursor (split at the last colon) and the pruned count', async () => {
    expect(readConversationSnapshot(body, 'c_ana_1')).toEqual({ state, running: [{ turnId: 'turn_a:b', seq: 7 }], prunedTurns: 1 });
    // What the host answers is what the page reads.
    const answer = await call(host, 'GET', '/v1/conversations/c_ana_empty/state', 'token-ana');
    expect(answer).toEqual({
      status: 200,
      body: { state: { schemaVersion: 1, conversationId: 'c_ana_empty', turns: [] }, running: [], pruned: [] },
    });
    expect(readConversationSnapshot(answer.body, 'c_ana_empty')).toEqual({
      state: { schemaVersion: 1, conversationId: 'c_ana_empty', turns: [] },
      running: [],
      prunedTurns: 0,
    });
  });

  it.each([
    ['another conversation', body, 'c_ana_2'],
    ['no state', { running: [], pruned: [] }, 'c_ana_1'],
    ['another schema version', { ...body, state: { ...state, schemaVersion: 2 } }, 'c_ana_1'],
    ['turns not a list', { ...body, state: { ...state, turns: {} } }, 'c_ana_1'],
    ['running not a list', { ...body, running: {} }, 'c_ana_1'],
    ['pruned missing', { state, running: [] }, 'c_ana_1'],
    ['a malformed cursor', { ...body, running: [{ turnId: 'turn_a', cursor: 'turn_a:07' }] }, 'c_ana_1'],
    ['a cursor on another turn', { ...body, running: [{ turnId: 'turn_b', cursor: 'turn_a:7' }] }, 'c_ana_1'],
    ['a running entry that is not an object', { ...body, running: ['turn_a:7'] }, 'c_ana_1'],
    ['not an object', 'state', 'c_ana_1'],
    ['null', null, 'c_ana_1'],
  ])('issue 24: %s is null (the page says it cannot read the answer)', (_name, input, conversationId) => {
    expect(readConversationSnapshot(input, conversationId)).toBeNull();
  });

  it('issue 24: readConversationSnapshot never throws on a hostile value in either argument', () => {
    for (const hostile of everyHostileArgument([body, 'c_ana_1'])) {
      expect(
        syncOutcomeOf(() => readConversationSnapshot(...(hostile.args as [unknown, string]))),
        hostile.label,
      ).toHaveProperty('returned');
    }
  });
});
