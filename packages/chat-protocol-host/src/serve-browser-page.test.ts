/**
 * The browser page's route (DESIGN §11): `GET /` answers the page without
 * auth, under a Content-Security-Policy that pins its inline script and style
 * by SHA-256 and requires Trusted Types; the API routes keep their auth.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFragmentSession } from './browser-page/page-session.js';
import { call, openTestStore, startHost, type Host, type TestStore } from './loopback-host.testing.js';

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
