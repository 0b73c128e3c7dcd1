/**
 * The host's browser page at `GET /` (DESIGN §11): one HTML document with its
 * style and its script inline, the script bundled at build time from
 * `src/page/browser/` (`bundle-browser-page.ts`). It owns the document and its
 * security headers: a Content-Security-Policy that lets only these two exact
 * inline blocks run (by SHA-256), talks only to this origin, and requires
 * Trusted Types, so no string can ever become markup. It needs no auth: it
 * holds no data; the page sends the person's bearer token to the API routes.
 */

// Defined by the build (tsup) and the tests (vitest): the minified page script.
declare const __CHAT_HOST_BROWSER_PAGE_SCRIPT__: string;

const STYLE = `
body { font: 16px/1.45 system-ui, sans-serif; margin: 0; color: #1d1d1f; background: #f6f6f4; }
main { max-width: 46rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.3rem; }
fieldset, .turn { background: #fff; border: 1px solid #d4d4d0; border-radius: 6px; padding: 0.6rem 0.8rem; }
#settings { display: flex; gap: 1rem; flex-wrap: wrap; }
#turns { list-style: none; padding: 0; display: grid; gap: 0.8rem; }
.user { margin: 0 0 0.4rem; font-weight: 600; }
.text { white-space: pre-wrap; }
.turn-status, .card-status, #connection-status { color: #55554f; font-size: 0.9rem; margin: 0.2rem 0; }
#connection-status[data-state="reconnecting"], #connection-status[data-state="lost"], #connection-status[data-state="refused"] { color: #9a3412; font-weight: 600; }
.block { border-left: 3px solid #6b8afd; padding-left: 0.6rem; margin: 0.4rem 0; white-space: normal; }
.block h3 { font-size: 1rem; margin: 0.2rem 0; }
.badge { font-size: 0.8rem; border-radius: 3px; padding: 0 0.3rem; background: #ececea; }
.tools { font-size: 0.9rem; }
.card { margin-top: 0.5rem; }
.actions button { margin-right: 0.4rem; }
.problem { color: #b91c1c; }
#composer { display: grid; gap: 0.4rem; }
textarea { font: inherit; min-height: 3rem; }
button { font: inherit; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
`;

const body = (script: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat protocol host</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>Chat protocol host</h1>
<form id="session">
<fieldset id="settings">
<legend>Connection</legend>
<p><label for="conversation">Conversation</label> <input id="conversation" autocomplete="off" spellcheck="false" required></p>
<p><label for="token">Bearer token</label> <input id="token" type="password" autocomplete="off" required></p>
<p><button id="open" type="submit">Open</button></p>
</fieldset>
</form>
<p id="connection-status" role="status" aria-live="polite"></p>
<ol id="turns" role="log" aria-live="polite" aria-label="Conversation"></ol>
<form id="composer">
<label for="message">Message</label>
<textarea id="message" maxlength="4000" required></textarea>
<p><button id="send" type="submit">Send</button> <button id="cancel" type="button" disabled>Cancel turn</button></p>
</form>
</main>
<script>${script}</script>
</body>
</html>
`;

async function sha256Source(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}

// The page's Content-Security-Policy, for a script and a style of these exact texts.
async function browserPagePolicy(script: string, style: string): Promise<string> {
  return [
    "default-src 'none'",
    `script-src ${await sha256Source(script)}`,
    `style-src ${await sha256Source(style)}`,
    "connect-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join('; ');
}

let page: Promise<{ readonly html: string; readonly policy: string }> | undefined;

/**
 * The page's response. Guarantees: `200 text/html`, the strict policy above,
 * `X-Content-Type-Options: nosniff`, no referrer, no framing, `no-cache`; the
 * document is built once per process and never holds caller data.
 */
export async function browserPageResponse(): Promise<Response> {
  const script = __CHAT_HOST_BROWSER_PAGE_SCRIPT__;
  page ??= browserPagePolicy(script, STYLE).then((policy) => ({ html: body(script), policy }));
  const { html, policy } = await page;
  return new Response(html, {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    },
  });
}
