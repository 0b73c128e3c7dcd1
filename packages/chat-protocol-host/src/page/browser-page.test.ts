/**
 * The host's browser page (DESIGN §11, issue 17) in a real headless Chromium
 * (Debian's `chromium` through `playwright-core`) against a host on loopback
 * on PGlite: a turn streams and renders, a card is answered by clicking, a cut
 * connection resumes without a repeated word, cancel ends the turn cancelled.
 * Screenshots go to `test-artifacts/` (gitignored).
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serializeAskTag, stripBlockTags } from '@papercusp/chat-protocol-blocks';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAgent, ChatAgentCard } from '../chat-agent.js';
import { launchChromium } from './chromium.testing.js';
import { call, follow, openTestStore, startHost, type Host, type TestStore } from '../loopback-host.testing.js';
import { SCRIPTED_REFUND_CALL_ID } from '../scripted/scripted-agent.js';

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url);
const FINAL_PROSE = 'Looking into order 1042. The refund is issued. Ticket closed.';

let testStore: TestStore | undefined;
let browser: Browser | undefined;
let context: BrowserContext | undefined;
let problems: string[] = [];

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Both start at once; whichever started is kept for teardown even if the other failed.
  const [opened, launched] = await Promise.allSettled([openTestStore(), launchChromium()]);
  if (opened.status === 'fulfilled') testStore = opened.value;
  if (launched.status === 'fulfilled') browser = launched.value;
  if (opened.status === 'rejected') throw opened.reason;
  if (launched.status === 'rejected') throw launched.reason;
}, 120_000);
// Everything this file started stops, whichever test failed: the browser first, then the servers and the database.
afterAll(async () => {
  await browser?.close();
  await testStore?.close();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});

const store = (): TestStore => {
  if (testStore === undefined) throw new Error('no store');
  return testStore;
};

// A new page in `browserContext` whose page errors and console errors are collected in `problems`.
async function watchedPage(browserContext: BrowserContext): Promise<Page> {
  const page = await browserContext.newPage();
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // The browser asks for /favicon.ico on its own; the host has none (404).
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) problems.push(`console: ${message.text()}`);
  });
  return page;
}

// A fresh page on the host, signed in through the URL fragment; page errors and console errors are collected.
async function openPage(host: Host, conversationId: string): Promise<Page> {
  if (browser === undefined) throw new Error('no browser');
  context = await browser.newContext({ viewport: { width: 900, height: 900 } });
  // Waits end in 10 s: a page that never shows what a test waits for fails it quickly.
  context.setDefaultTimeout(10_000);
  problems = [];
  const page = await watchedPage(context);
  await page.goto(`${host.base}/#token=token-ana&conversation=${conversationId}`);
  return page;
}

// Another tab of the same browser on the same conversation, signed in the same way; its problems are collected too.
async function openTab(host: Host, conversationId: string, token = 'token-ana'): Promise<Page> {
  if (context === undefined) throw new Error('no context');
  const page = await watchedPage(context);
  await page.goto(`${host.base}/#token=${token}&conversation=${conversationId}`);
  return page;
}

// After a reload the page knows the conversation (fragment) but not the token: the person types it and opens.
async function reopen(page: Page): Promise<void> {
  await page.getByLabel('Bearer token').fill('token-ana');
  await page.getByRole('button', { name: 'Open' }).click();
}

async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

const turn = (page: Page, index = 0) => page.locator('#turns > li').nth(index);
const prose = (page: Page) => turn(page).locator('.text .prose').allTextContents();
const turnIdOf = async (page: Page): Promise<string> => (await turn(page).getAttribute('data-turn-id')) ?? '';

describe('the browser page at / in headless Chromium (DESIGN §11, issue 17)', () => {
  it('§11 a turn streams into the page: text, the report block, tool activity; the card is answered by clicking', async () => {
    const host = await startHost(store());
    const page = await openPage(host, 'c_ana_page');
    // The token was read from the fragment and dropped from the address bar; the conversation stays, for a reload.
    expect(page.url()).toBe(`${host.base}/#conversation=c_ana_page`);
    await send(page, 'Refund order 1042');
    const card = turn(page).locator('fieldset.card');
    await card.getByRole('button', { name: 'Yes' }).click();
    await turn(page).and(page.locator('[data-status="completed"]')).waitFor();
    expect((await prose(page)).join('')).toBe(FINAL_PROSE);
    expect(await turn(page).locator('.turn-status').textContent()).toBe('Completed');
    expect(await turn(page).locator('.reasoning p').textContent()).toBe('The order qualifies for a refund.');
    const report = page.getByRole('region', { name: 'Report: Refund' });
    expect(await report.locator('li').allTextContents()).toEqual(['Order 1042 wipRefund issued done', 'Refund issued done']);
    expect(await turn(page).locator('.tools li').allTextContents()).toEqual([
      'issue_refund {"orderId":"1042"}: succeeded (refund 1042 issued)',
    ]);
    expect(await card.locator('legend').textContent()).toBe('Close the ticket?');
    expect(await card.locator('.card-status').textContent()).toBe('Closed: submitted.');
    expect(await card.getAttribute('data-closed')).toBe('true');
    // What the page shows is what a clean replay from the database holds.
    const replay = await follow(host, 'c_ana_page', await turnIdOf(page));
    // stripBlockTags keeps an <ask>'s question as prose; the page draws it in its ask block.
    expect(stripBlockTags(replay.state?.turns[0]?.text ?? '')).toBe(
      'Looking into order 1042. The refund is issued. Anything else about order 1042?Ticket closed.',
    );
    expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel turn' }).isDisabled()).toBe(true);
    await page.screenshot({ path: fileURLToPath(new URL('browser-page.png', ARTIFACTS)), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('§7 an answer whose own response comes after the stream closed its card leaves the card shown closed, not "Sent."', async () => {
    const host = await startHost(store());
    const page = await openPage(host, 'c_ana_page_late_answer');
    // The answer's response is held until the turn has ended: the card_closed frame reaches the page first.
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/cards/**', async (route) => {
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    });
    await send(page, 'Refund order 1042');
    const card = turn(page).locator('fieldset.card');
    await card.getByRole('button', { name: 'Yes' }).click();
    await turn(page).and(page.locator('[data-status="completed"]')).waitFor();
    expect(await card.locator('.card-status').textContent()).toBe('Closed: submitted.');
    const answered = page.waitForResponse('**/cards/**');
    release();
    expect((await answered).status()).toBe(200);
    // Past the page's handling of the response (a macrotask later), the card still says what the stream said.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(await card.locator('.card-status').textContent()).toBe('Closed: submitted.');
    expect(problems).toEqual([]);
  });

  it('§11 the page is served with a strict policy: Trusted Types refuse innerHTML, so model text never becomes markup', async () => {
    const host = await startHost(store());
    const page = await openPage(host, 'c_ana_policy');
    const refused = await page.evaluate(() => {
      // Runs in the page; this file is typed for Node, without the DOM library.
      const { body } = (globalThis as unknown as { document: { body: { innerHTML: string } } }).document;
      try {
        body.innerHTML = '<img src=x>';
        return 'allowed';
      } catch (error) {
        return error instanceof TypeError ? 'TypeError' : 'other';
      }
    });
    expect(refused).toBe('TypeError');
    expect(problems.filter((problem) => !problem.includes('TrustedHTML'))).toEqual([]);
  });

  it('§3.7 declining a card by clicking Decline closes it declined, and the turn goes on without the answer', async () => {
    const host = await startHost(store());
    const page = await openPage(host, 'c_ana_decline');
    await send(page, 'Refund order 1042');
    const card = turn(page).locator('fieldset.card');
    await card.getByRole('button', { name: 'Decline' }).click();
    await turn(page).and(page.locator('[data-status="completed"]')).waitFor();
    expect(await card.locator('.card-status').textContent()).toBe('Closed: declined.');
    expect((await prose(page)).join('')).toBe('Looking into order 1042. The refund is issued. Ticket left open.');
    expect(problems).toEqual([]);
  });

  it('§3.3 a failed turn shows Failed with its error and its retry permission', async () => {
    const host = await startHost(store());
    const page = await openPage(host, 'c_ana_fail');
    await send(page, 'fail this one');
    await turn(page).and(page.locator('[data-status="failed"]')).waitFor();
    expect(await turn(page).locator('.turn-status').textContent()).toBe('Failed');
    expect(await turn(page).getByRole('alert').textContent()).toBe('the scripted provider is down (you may send it again)');
    expect((await prose(page)).join('')).toBe('Let me check. ');
    expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('issue 17: the connection is cut mid-turn; the page shows it reconnecting, resumes after its cursor, and shows every word once', async () => {
    const host = await startHost(store());
    const server = store().servers.at(-1);
    const page = await openPage(host, 'c_ana_cut');
    await send(page, 'Refund order 1042');
    const card = turn(page).locator('fieldset.card');
    await card.getByRole('button', { name: 'Yes' }).waitFor();
    const turnId = await turnIdOf(page);
    // Hold the page's reconnects, then drop every connection the server holds (the stream among them).
    const held: Route[] = [];
    await page.route('**/events', (route) => void held.push(route));
    server?.closeAllConnections();
    await page.locator('#connection-status[data-state="reconnecting"]').waitFor();
    expect(await page.locator('#connection-status').textContent()).toMatch(/^Connection lost \(network-error\): reconnecting, attempt 1…$/);
    await page.screenshot({ path: fileURLToPath(new URL('browser-page-reconnecting.png', ARTIFACTS)), fullPage: true });
    // While the stream is down the person answers the card: the rest of the turn is written without the page watching.
    await card.getByRole('button', { name: 'Yes' }).click();
    const whole = await follow(host, 'c_ana_cut', turnId);
    expect(whole.state?.turns[0]?.status).toBe('completed');
    await expect.poll(() => held.length).toBeGreaterThan(0);
    const cardSeq = whole.envelopes.find((envelope) => envelope.event.type === 'card')?.seq;
    expect(held[0]?.request().headers()['last-event-id']).toBe(`${turnId}:${cardSeq}`);
    for (const route of held) await route.continue();
    await page.unroute('**/events');
    await turn(page).and(page.locator('[data-status="completed"]')).waitFor();
    await page.locator('#connection-status[data-state="reconnected"]').waitFor();
    expect((await prose(page)).join('')).toBe(FINAL_PROSE);
    expect(await card.locator('.card-status').textContent()).toBe('Closed: submitted.');
    await page.screenshot({ path: fileURLToPath(new URL('browser-page-resumed.png', ARTIFACTS)), fullPage: true });
    expect(problems.filter((problem) => !problem.includes('net::ERR'))).toEqual([]);
  });

  it('§11 cancel: the button cancels the running turn while its tool is in flight; the tool shows cancelled, the turn Cancelled', async () => {
    const host = await startHost(store(), { toolDelayMs: 1500 });
    const page = await openPage(host, 'c_ana_cancel_page');
    await send(page, 'Refund order 1042');
    await turn(page).locator(`.tools li[data-call-id="${SCRIPTED_REFUND_CALL_ID}"][data-status="running"]`).waitFor();
    await page.getByRole('button', { name: 'Cancel turn' }).click();
    await turn(page).and(page.locator('[data-status="cancelled"]')).waitFor();
    expect(await turn(page).locator('.turn-status').textContent()).toBe('Cancelled');
    expect(await turn(page).locator('.tools li').allTextContents()).toEqual(['issue_refund {"orderId":"1042"}: cancelled']);
    expect((await prose(page)).join('')).toBe('Looking into order 1042. ');
    expect(await turn(page).locator('fieldset.card').count()).toBe(0);
    // The effect had started: its late result is retained by recovery while the turn stays cancelled.
    const turnId = await turnIdOf(page);
    await expect
      .poll(async () => (await store().store.turnStore.read(turnId))?.record, { timeout: 5000 })
      .toMatchObject({
        status: 'cancelled',
        effects: [{ effectId: `effect_${turnId}_1`, status: 'completed', result: { summary: 'refund 1042 issued' } }],
      });
    expect(host.effects).toEqual([turnId]);
    expect(await page.getByRole('button', { name: 'Cancel turn' }).isDisabled()).toBe(true);
    expect(problems).toEqual([]);
  });
});

describe('the page shows a conversation opened again from GET /state (issue 24)', () => {
  it('issue 24: after a reload the whole conversation is shown: each message, the text, blocks, tool activity, the answered card, the error', async () => {
    const host = await startHost(store());
    const page = await openPage(host, 'c_ana_reload');
    await send(page, 'Refund order 1042');
    await turn(page).locator('fieldset.card').getByRole('button', { name: 'Yes' }).click();
    await turn(page).and(page.locator('[data-status="completed"]')).waitFor();
    await send(page, 'fail this one');
    await turn(page, 1).and(page.locator('[data-status="failed"]')).waitFor();
    const shownLive = await page.locator('#turns').textContent();
    await page.reload();
    // A reload keeps the conversation (in the fragment) but never the token: it is asked for again.
    expect(page.url()).toBe(`${host.base}/#conversation=c_ana_reload`);
    expect(await page.getByRole('textbox', { name: 'Conversation' }).inputValue()).toBe('c_ana_reload');
    expect(await page.getByLabel('Bearer token').inputValue()).toBe('');
    expect(await page.locator('#connection-status').textContent()).toBe('Enter the bearer token and choose Open to show the conversation.');
    expect(await page.locator('#turns > li').count()).toBe(0);
    await reopen(page);
    await turn(page, 1).and(page.locator('[data-status="failed"]')).waitFor();
    expect(await page.locator('#turns > li').count()).toBe(2);
    expect(await page.locator('#turns .user').allTextContents()).toEqual(['You: Refund order 1042', 'You: fail this one']);
    expect(await page.locator('#turns .turn-status').allTextContents()).toEqual(['Completed', 'Failed']);
    expect((await prose(page)).join('')).toBe(FINAL_PROSE);
    expect(await turn(page).locator('.reasoning p').textContent()).toBe('The order qualifies for a refund.');
    expect(await page.getByRole('region', { name: 'Report: Refund' }).locator('li').allTextContents()).toEqual([
      'Order 1042 wipRefund issued done',
      'Refund issued done',
    ]);
    expect(await page.getByRole('region', { name: 'Question' }).textContent()).toBe(
      'Anything else about order 1042?Email me the receiptNo, thanks',
    );
    expect(await turn(page).locator('.tools li').allTextContents()).toEqual([
      'issue_refund {"orderId":"1042"}: succeeded (refund 1042 issued)',
    ]);
    const card = turn(page).locator('fieldset.card');
    expect(await card.locator('legend').textContent()).toBe('Close the ticket?');
    expect(await card.locator('.card-status').textContent()).toBe('Closed: submitted.');
    expect(await card.getAttribute('data-closed')).toBe('true');
    expect(await card.getByRole('button', { name: 'Yes' }).isDisabled()).toBe(true);
    expect(await turn(page, 1).getByRole('alert').textContent()).toBe('the scripted provider is down (you may send it again)');
    expect((await turn(page, 1).locator('.text .prose').allTextContents()).join('')).toBe('Let me check. ');
    // Drawn from the folded state, the conversation reads exactly as it did live.
    expect(await page.locator('#turns').textContent()).toBe(shownLive);
    expect(await page.locator('#connection-status').textContent()).toBe('');
    expect(await page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Cancel turn' }).isDisabled()).toBe(true);
    await page.screenshot({ path: fileURLToPath(new URL('browser-page-reopened.png', ARTIFACTS)), fullPage: true });
    expect(problems).toEqual([]);
  });

  it('issue 24: a second tab opened during a running turn shows it so far, resumes it after the /state cursor, and shows every word once', async () => {
    const host = await startHost(store());
    const first = await openPage(host, 'c_ana_tabs');
    await send(first, 'Refund order 1042');
    await turn(first).locator('fieldset.card').getByRole('button', { name: 'Yes' }).waitFor();
    const turnId = await turnIdOf(first);
    // The turn waits on its card: the state and its cursor stay as they are until it is answered.
    const stateAnswer = await call(host, 'GET', '/v1/conversations/c_ana_tabs/state', 'token-ana');
    const { running } = stateAnswer.body as { running: { turnId: string; cursor: string }[] };
    expect(running).toEqual([{ turnId, cursor: expect.stringMatching(new RegExp(`^${turnId}:\\d+$`)) as unknown }]);
    const resumedAfter: (string | undefined)[] = [];
    context?.on('request', (request) => {
      if (request.url().endsWith('/events')) resumedAfter.push(request.headers()['last-event-id']);
    });
    const second = await openTab(host, 'c_ana_tabs');
    const secondCard = turn(second).locator('fieldset.card');
    await secondCard.getByRole('button', { name: 'Yes' }).waitFor();
    expect(await turn(second).getAttribute('data-turn-id')).toBe(turnId);
    expect(await turn(second).locator('.user').textContent()).toBe('You: Refund order 1042');
    expect(await turn(second).locator('.turn-status').textContent()).toBe('Responding…');
    expect((await prose(second)).join('')).toBe('Looking into order 1042. The refund is issued. ');
    expect(await secondCard.getAttribute('data-closed')).toBe('false');
    expect(await second.getByRole('button', { name: 'Cancel turn' }).isEnabled()).toBe(true);
    expect(await second.getByRole('button', { name: 'Send' }).isDisabled()).toBe(true);
    await second.locator('#connection-status[data-state="connected"]').waitFor();
    expect(resumedAfter).toEqual([running[0]?.cursor]);
    await second.screenshot({ path: fileURLToPath(new URL('browser-page-second-tab.png', ARTIFACTS)), fullPage: true });
    // Answered in the first tab: the second follows the rest of the turn on its resumed stream.
    await turn(first).locator('fieldset.card').getByRole('button', { name: 'Yes' }).click();
    await turn(second).and(second.locator('[data-status="completed"]')).waitFor();
    expect((await prose(second)).join('')).toBe(FINAL_PROSE);
    expect(await secondCard.locator('.card-status').textContent()).toBe('Closed: submitted.');
    await turn(first).and(first.locator('[data-status="completed"]')).waitFor();
    expect(await second.locator('#turns').textContent()).toBe(await first.locator('#turns').textContent());
    expect(await second.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
    expect(await second.getByRole('button', { name: 'Cancel turn' }).isDisabled()).toBe(true);
    expect(resumedAfter).toEqual([running[0]?.cursor]);
    expect(problems).toEqual([]);
  });

  it('issue 24: a card still open after a reload is answered by clicking, and the resumed turn runs to its end', async () => {
    const host = await startHost(store());
    const page = await openPage(host, 'c_ana_reload_card');
    await send(page, 'Refund order 1042');
    await turn(page).locator('fieldset.card').getByRole('button', { name: 'Yes' }).waitFor();
    await page.reload();
    await reopen(page);
    const card = turn(page).locator('fieldset.card');
    await card.getByRole('button', { name: 'Yes' }).waitFor();
    expect(await card.getAttribute('data-closed')).toBe('false');
    expect(await card.getByRole('button', { name: 'Yes' }).isEnabled()).toBe(true);
    await card.getByRole('button', { name: 'Yes' }).click();
    await turn(page).and(page.locator('[data-status="completed"]')).waitFor();
    expect((await prose(page)).join('')).toBe(FINAL_PROSE);
    expect(await card.locator('.card-status').textContent()).toBe('Closed: submitted.');
    expect(await page.locator('#turns > li').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it("issue 24: a conversation the token may not read is refused with the host's code, and nothing is shown", async () => {
    const host = await startHost(store());
    await openPage(host, 'c_ana_refused');
    const page = await openTab(host, 'c_ana_refused', 'token-bob');
    await page.locator('#connection-status[data-state="refused"]').waitFor();
    expect(await page.locator('#connection-status').textContent()).toBe(
      'The host answered 404: not-found (no such conversation, turn or card)',
    );
    expect(await page.locator('#turns > li').count()).toBe(0);
    expect(problems.filter((problem) => !problem.includes('404'))).toEqual([]);
  });
});

// Markup in model text, in prose, a block and card labels: the page must show it as text.
const HOSTILE = '<img src=x onerror="globalThis.pwned=1">Hello & <b>bold</b>. ';
const KIND_CARDS: readonly ChatAgentCard[] = [
  { prompt: 'Your name?', presentation: { kind: 'text', placeholder: 'Name' } },
  {
    prompt: 'Pick <b>one</b>',
    presentation: {
      kind: 'radio',
      options: [
        { id: 'opt_a', label: '<i>A</i>' },
        { id: 'opt_b', label: 'B' },
      ],
    },
  },
  {
    prompt: 'Which size?',
    presentation: {
      kind: 'select',
      options: [
        { id: 'small', label: 'Small' },
        { id: 'large', label: 'Large' },
      ],
    },
  },
  {
    prompt: 'Extras?',
    presentation: {
      kind: 'checkbox',
      options: [
        { id: 'milk', label: 'Milk' },
        { id: 'sugar', label: 'Sugar' },
      ],
    },
  },
  { prompt: 'When?', presentation: { kind: 'date', min: '2026-01-01', max: '2026-12-31' } },
  { prompt: 'How many?', presentation: { kind: 'slider', min: 0, max: 10, step: 1, unit: 'items' } },
];
// Asks one card of each kind but confirm (the scripted agent's), and writes back each answer's value.
const cardKindsAgent: ChatAgent = {
  async *run() {
    yield { type: 'delta', text: HOSTILE };
    yield { type: 'delta', text: serializeAskTag({ question: '<script>x</script>?', options: [{ id: 'yes', label: '<u>Yes</u>' }] }) };
    for (const card of KIND_CARDS) {
      const answer = yield { type: 'card', card };
      yield { type: 'delta', text: `${JSON.stringify(answer?.type === 'card-closed' ? answer.value : null)} ` };
    }
  },
};

describe('the browser page renders model text as text and answers every card kind (DESIGN §3.7, §4, §11)', () => {
  it('§11 markup in prose, blocks and cards shows as text; text, radio, select, checkbox, date and slider cards are answered through their controls', async () => {
    const host = await startHost(store(), {}, { agent: cardKindsAgent });
    const page = await openPage(host, 'c_ana_kinds');
    await send(page, 'Ask me everything');
    const card = (prompt: string) => turn(page).locator('fieldset.card', { has: page.locator('legend', { hasText: prompt }) });
    await card('Your name?').getByLabel('Answer').fill('Ana');
    await card('Your name?').getByRole('button', { name: 'Submit' }).click();
    await card('Pick <b>one</b>').getByLabel('<i>A</i>').check();
    await card('Pick <b>one</b>').getByRole('button', { name: 'Submit' }).click();
    await card('Which size?').getByLabel('Answer').selectOption('large');
    await card('Which size?').getByRole('button', { name: 'Submit' }).click();
    await card('Extras?').getByLabel('Milk').check();
    await card('Extras?').getByLabel('Sugar').check();
    await card('Extras?').getByRole('button', { name: 'Submit' }).click();
    await card('When?').getByLabel('Date').fill('2026-05-04');
    await card('When?').getByRole('button', { name: 'Submit' }).click();
    await card('How many?').getByLabel('Value').fill('7');
    await card('How many?').getByRole('button', { name: 'Submit' }).click();
    await turn(page).and(page.locator('[data-status="completed"]')).waitFor();
    expect((await prose(page)).join('')).toBe(
      `${HOSTILE}{"text":"Ana"} {"optionId":"opt_a"} {"optionId":"large"} {"optionIds":["milk","sugar"]} {"date":"2026-05-04"} {"value":7} `,
    );
    const ask = page.getByRole('region', { name: 'Question' });
    expect(await ask.textContent()).toBe('<script>x</script>?<u>Yes</u>');
    expect(await page.locator('#turns img, #turns b, #turns i, #turns u, #turns script').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
    expect(await turn(page).locator('.card-status').allTextContents()).toEqual(KIND_CARDS.map(() => 'Closed: submitted.'));
    expect(problems).toEqual([]);
  });
});
