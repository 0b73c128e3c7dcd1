import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCardWakeups } from './card-wakeups.js';

afterEach(() => vi.useRealTimers());

// Settles `promise` against fake time: 'woken' if it settled before `ms` more elapsed.
async function settledWithin(promise: Promise<void>, ms: number): Promise<'woken' | 'pending'> {
  let settled = false;
  void promise.then(() => (settled = true));
  await vi.advanceTimersByTimeAsync(ms);
  return settled ? 'woken' : 'pending';
}

describe('card wakeups (issue 17: a card answered over HTTP reaches the waiting run)', () => {
  it('a wake between arming and awaiting settles the wait at once: no lost wakeup while the run reads its card', async () => {
    vi.useFakeTimers();
    const wakeups = createCardWakeups(60_000);
    const armed = wakeups.arm('card_1', new AbortController().signal);
    // The run is reading the card (pending) when the answer's route wakes it.
    wakeups.wake('card_1');
    expect(await settledWithin(armed.woken, 1)).toBe('woken');
  });

  it('a wake reaches only the waits armed on its card; the others settle at the poll interval', async () => {
    vi.useFakeTimers();
    const wakeups = createCardWakeups(1000);
    const other = wakeups.arm('card_2', new AbortController().signal);
    wakeups.wake('card_1');
    expect(await settledWithin(other.woken, 999)).toBe('pending');
    expect(await settledWithin(other.woken, 1)).toBe('woken');
  });

  it('abort settles the wait, and a settled or released wait holds no timer', async () => {
    vi.useFakeTimers();
    const wakeups = createCardWakeups(60_000);
    const controller = new AbortController();
    const aborted = wakeups.arm('card_1', controller.signal);
    // Each wait's timer is cleared before the abort (or the release) returns: counted around that synchronous step,
    // since other timers may come and go while the test awaits.
    const armed = vi.getTimerCount();
    controller.abort();
    expect(vi.getTimerCount()).toBe(armed - 1);
    expect(await settledWithin(aborted.woken, 1)).toBe('woken');
    const released = wakeups.arm('card_1', new AbortController().signal);
    const held = vi.getTimerCount();
    released.release();
    expect(vi.getTimerCount()).toBe(held - 1);
    expect(await settledWithin(released.woken, 1)).toBe('woken');
  });
});
