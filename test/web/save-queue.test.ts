// The automation builder's autosave queue, on a fake clock and a fake server: edits coalesce into
// one save once the editing pauses, one save at a time with the latest state last, an edit during
// a save in flight is kept (pending, then sent), a refusal stays until a retry or the next edit,
// flush saves everything before publishing, and leaving sends what is not saved.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SaveQueue, type SaveState } from '../../web/src/pages/automation-builder/save-queue';

interface Body {
  n: number;
}

/** A server whose answers the test gives, one per save, in order. */
function fakeServer() {
  const calls: { body: Body; resolve: (v: string) => void; reject: (e: unknown) => void }[] = [];
  const save = (body: Body) => new Promise<string>((resolve, reject) => calls.push({ body, resolve, reject }));
  return { calls, save };
}

function setup() {
  const server = fakeServer();
  const states: SaveState['kind'][] = [];
  const saved: [string, Body][] = [];
  const failed: [unknown, Body][] = [];
  const q = new SaveQueue<Body, string>({
    initial: { n: 0 },
    pauseMs: 700,
    save: server.save,
    onSaved: (a, b) => saved.push([a, b]),
    onFailed: (e, b) => failed.push([e, b]),
    onState: (s) => states.push(s.kind),
  });
  const bump = () => q.edit((b) => ({ n: b.n + 1 }));
  return { q, server, states, saved, failed, bump };
}

/** Lets the queue's promise chains run. */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('SaveQueue', () => {
  it('starts saved, with no time, and sends nothing with no edit', async () => {
    const { q, server } = setup();
    expect(q.state).toEqual({ kind: 'saved', at: null });
    expect(await q.send()).toBe(true);
    expect(await q.flush()).toBe(true);
    expect(server.calls).toHaveLength(0);
  });

  it('coalesces edits into one save once the editing pauses', async () => {
    const { q, server, bump } = setup();
    bump();
    await vi.advanceTimersByTimeAsync(500);
    bump();
    await vi.advanceTimersByTimeAsync(500);
    bump();
    // Each edit restarts the pause: 1,000 ms after the first, nothing is sent yet.
    expect(server.calls).toHaveLength(0);
    expect(q.state.kind).toBe('pending');
    await vi.advanceTimersByTimeAsync(700);
    expect(server.calls.map((c) => c.body)).toEqual([{ n: 3 }]);
    expect(q.state.kind).toBe('saving');
    server.calls[0].resolve('v1');
    await settle();
    expect(q.state).toMatchObject({ kind: 'saved' });
    expect((q.state as { at: Date }).at).toBeInstanceOf(Date);
    expect(q.unsaved).toBe(false);
  });

  it('keeps an edit made during a save in flight: pending, then sent after it', async () => {
    const { q, server, states, saved, bump } = setup();
    bump();
    await vi.advanceTimersByTimeAsync(700);
    expect(server.calls).toHaveLength(1);
    bump();
    // Still saving while the first save is out; no second save in parallel.
    expect(q.state.kind).toBe('saving');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.calls).toHaveLength(1);
    server.calls[0].resolve('v1');
    await settle();
    expect(q.state.kind).toBe('pending');
    expect(q.unsaved).toBe(true);
    await vi.advanceTimersByTimeAsync(700);
    expect(server.calls.map((c) => c.body)).toEqual([{ n: 1 }, { n: 2 }]);
    server.calls[1].resolve('v2');
    await settle();
    expect(saved).toEqual([
      ['v1', { n: 1 }],
      ['v2', { n: 2 }],
    ]);
    expect(states).toEqual(['pending', 'saving', 'saving', 'pending', 'saving', 'saved']);
  });

  it('runs saves asked for meanwhile one at a time, the latest state last, and skips one already covered', async () => {
    const { q, server, bump } = setup();
    bump();
    const first = q.send();
    bump();
    const second = q.send();
    const third = q.send();
    await settle();
    expect(server.calls.map((c) => c.body)).toEqual([{ n: 1 }]);
    server.calls[0].resolve('v1');
    await settle();
    // The second sends the state of then; the third finds it covered once the second answers.
    expect(server.calls.map((c) => c.body)).toEqual([{ n: 1 }, { n: 2 }]);
    server.calls[1].resolve('v2');
    expect(await Promise.all([first, second, third])).toEqual([true, true, true]);
    expect(server.calls).toHaveLength(2);
    expect(q.state.kind).toBe('saved');
  });

  it('keeps a refusal until a retry sends the same edits again, and reports it with the body refused', async () => {
    const { q, server, failed, bump } = setup();
    bump();
    const refusal = new Error('refused');
    const out = q.send();
    await settle();
    server.calls[0].reject(refusal);
    expect(await out).toBe(false);
    expect(q.state).toEqual({ kind: 'error', error: refusal });
    expect(failed).toEqual([[refusal, { n: 1 }]]);
    // No timer after a failure: it is not retried on its own.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(server.calls).toHaveLength(1);
    const retry = q.send();
    await settle();
    expect(server.calls.map((c) => c.body)).toEqual([{ n: 1 }, { n: 1 }]);
    server.calls[1].resolve('v1');
    expect(await retry).toBe(true);
    expect(q.state.kind).toBe('saved');
  });

  it('turns pending again on an edit after a failure, and saves on the pause', async () => {
    const { q, server, bump } = setup();
    bump();
    const out = q.send();
    await settle();
    server.calls[0].reject(new Error('down'));
    await out;
    bump();
    expect(q.state.kind).toBe('pending');
    await vi.advanceTimersByTimeAsync(700);
    expect(server.calls.map((c) => c.body)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('flush saves the edits made during its own save, and says false on a refusal', async () => {
    const { q, server, bump } = setup();
    bump();
    const flushed = q.flush();
    await settle();
    bump();
    server.calls[0].resolve('v1');
    await settle();
    expect(server.calls.map((c) => c.body)).toEqual([{ n: 1 }, { n: 2 }]);
    server.calls[1].resolve('v2');
    expect(await flushed).toBe(true);
    expect(q.unsaved).toBe(false);

    bump();
    const refused = q.flush();
    await settle();
    server.calls[2].reject(new Error('no'));
    expect(await refused).toBe(false);
    expect(server.calls).toHaveLength(3);
  });

  it('a send before the pause ends stops the pause timer (no second save of the same edits)', async () => {
    const { q, server, bump } = setup();
    bump();
    const out = q.send();
    await settle();
    server.calls[0].resolve('v1');
    await out;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.calls).toHaveLength(1);
  });

  it('leaving sends at once what is not saved, and nothing when all is saved', async () => {
    const { q, server, bump } = setup();
    q.leave();
    expect(server.calls).toHaveLength(0);
    bump();
    q.leave();
    await settle();
    expect(server.calls.map((c) => c.body)).toEqual([{ n: 1 }]);
    server.calls[0].resolve('v1');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.calls).toHaveLength(1);
    expect(q.state.kind).toBe('saved');
  });

  it('hands back the latest body on each edit', () => {
    const { q, bump } = setup();
    expect(q.latest).toEqual({ n: 0 });
    expect(bump()).toEqual({ n: 1 });
    expect(q.latest).toEqual({ n: 1 });
  });
});
