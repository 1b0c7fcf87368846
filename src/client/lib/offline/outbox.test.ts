import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getConnectivity, reportServerAnswer, resetConnectivityForTests } from './connectivity';
import { type OutboxEntry, resetOfflineDbForTests } from './db';
import {
  type OutboxEvent,
  backoffDelay,
  discard,
  edit,
  enqueue,
  isOutboxPaused,
  outboxCounts,
  replayOutbox,
  resetOutboxForTests,
  resumeOutbox,
  retry,
  settleOutboxForTests,
  startOutbox,
  subscribeOutbox,
} from './outbox';
import { setOutboxUser } from './outbox-user';

interface Call {
  url: string;
  key: string;
  body: unknown;
  headers: Record<string, string>;
}

type Answer = { status: number; body?: unknown } | 'network';

/** A fetch that records each call and answers from `answer(call)` (default: 200 envelope). */
function mockFetch(answer: (call: Call, index: number) => Answer = () => ({ status: 200 })) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    const call: Call = { url, key: headers['Idempotency-Key']!, body: JSON.parse(String(init.body)), headers };
    calls.push(call);
    const a = answer(call, calls.length - 1);
    if (a === 'network') throw new TypeError('Failed to fetch');
    const payload = a.body ?? { code: 0, msg: 'success', data: { ok: true } };
    return { ok: a.status >= 200 && a.status < 300, status: a.status, statusText: '', text: async () => JSON.stringify(payload) } as unknown as Response;
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

let clock = 1_700_000_000_000;
const note = (n: number) => ({ kind: 'miner.note', url: '/api/miner/notes', body: { ip: '10.0.0.1', text: `note ${n}` }, agentKey: 'farm-a', label: `Note ${n}` });
const entries = async () => (await resetDb.outbox.orderBy('created').toArray()) as OutboxEntry[];
let resetDb = resetOfflineDbForTests();

beforeEach(() => {
  resetOutboxForTests();
  resetConnectivityForTests();
  resetDb = resetOfflineDbForTests();
  clock = 1_700_000_000_000;
  startOutbox({ now: () => clock, random: () => 0.5, locale: () => 'en-US' });
});
afterEach(async () => {
  await settleOutboxForTests();
  resetOutboxForTests();
  vi.unstubAllGlobals();
});

describe('outbox', () => {
  it('jitters the backoff 5 s, 15 s, 60 s, then 5 min', () => {
    expect([1, 2, 3, 4, 9].map((n) => backoffDelay(n, () => 0.5))).toEqual([5000, 15000, 60000, 300000, 300000]);
    expect(backoffDelay(1, () => 0)).toBe(4000);
    expect(backoffDelay(1, () => 1)).toBe(6000);
  });

  it('sends entries one at a time in creation order with Idempotency-Key = id, then deletes them', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const calls = mockFetch(() => ({ status: 200 }));
    const fetchFn = globalThis.fetch;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return fetchFn(url, init);
    });
    const made: OutboxEntry[] = [];
    for (let i = 0; i < 5; i += 1) made.push(await enqueue(note(i)));
    await replayOutbox();
    await replayOutbox();
    expect(calls.map((c) => (c.body as { text: string }).text)).toEqual(['note 0', 'note 1', 'note 2', 'note 3', 'note 4']);
    expect(calls.map((c) => c.key)).toEqual(made.map((e) => e.id));
    expect(calls[0]!.headers).toMatchObject({ 'X-Requested-With': 'XMLHttpRequest', agentKey: 'farm-a', I18N: 'en-US' });
    expect(maxInFlight).toBe(1);
    expect(await entries()).toEqual([]);
  });

  it('a network failure marks the entry failed with backoff and holds later entries until it is due', async () => {
    let down = true;
    const calls = mockFetch(() => (down ? 'network' : { status: 200 }));
    const first = await enqueue(note(1));
    await replayOutbox();
    let [e] = await entries();
    expect(e).toMatchObject({ id: first.id, state: 'failed', attempts: 1, nextAttemptAt: clock + 5000, lastError: { status: 0 } });
    await enqueue(note(2));
    await replayOutbox();
    expect(calls).toHaveLength(1); // not due: nothing sent, order kept
    clock += 5000;
    await replayOutbox(); // due now, still down
    [e] = await entries();
    expect(e).toMatchObject({ state: 'failed', attempts: 2, nextAttemptAt: clock + 15000 });
    down = false;
    clock += 15000;
    await replayOutbox();
    expect(calls.slice(2).map((c) => (c.body as { text: string }).text)).toEqual(['note 1', 'note 2']);
    expect(calls.slice(1).map((c) => c.key)).toEqual([first.id, first.id, calls[3]!.key]);
    expect(await entries()).toEqual([]);
  });

  it('5xx and a still-running twin (409 4091) retry; other 4xx become dead letters with the server reason and data', async () => {
    const answers: Answer[] = [
      { status: 503, body: { code: 500, msg: 'Server failed', data: null } },
      { status: 409, body: { code: 4091, msg: 'The same request is still being processed', data: null } },
      { status: 409, body: { code: 409, msg: 'The record was changed by someone else', data: { current: { customer: 'Acme', marksVersion: '42' } } } },
      { status: 422, body: { code: 422, msg: 'This request key was already used for a different request', data: null } },
      { status: 400, body: { code: 1001, msg: 'Too long', data: { fields: { text: 'Too long' } } } },
      { status: 200 },
    ];
    mockFetch((_c, i) => answers[i] ?? { status: 200 });
    const events: OutboxEvent[] = [];
    subscribeOutbox((ev) => events.push(ev));
    for (let i = 0; i < 4; i += 1) await enqueue(note(i));
    await replayOutbox();
    expect((await entries())[0]).toMatchObject({ state: 'failed', lastError: { status: 503, message: 'Server failed' } });
    await replayOutbox({ force: true });
    expect((await entries())[0]).toMatchObject({ state: 'failed', attempts: 2, lastError: { status: 409, code: '4091' } });
    await replayOutbox({ force: true });
    const rows = await entries();
    // note 0 dead on its third try (409 conflict), notes 1–2 dead with their reasons, note 3 applied.
    expect(rows.map((r) => [(r.body as { text: string }).text, r.state, r.lastError?.status])).toEqual([
      ['note 0', 'dead', 409],
      ['note 1', 'dead', 422],
      ['note 2', 'dead', 400],
    ]);
    expect(rows[0]!.lastError).toMatchObject({ message: 'The record was changed by someone else', data: { current: { customer: 'Acme', marksVersion: '42' } } });
    expect(await outboxCounts()).toEqual({ pending: 0, failed: 0, dead: 3 });
    expect(events.filter((e) => e.type === 'dead')).toHaveLength(3);
    expect(events.filter((e) => e.type === 'applied')).toHaveLength(1);
  });

  it('retry and edit resend a dead letter under a new key; discard drops it', async () => {
    let reject = true;
    const calls = mockFetch(() => (reject ? { status: 409, body: { code: 409, msg: 'changed', data: { current: { marksVersion: '7' } } } } : { status: 200 }));
    const a = await enqueue({ ...note(1), kind: 'miner.customer', body: { ip: '10.0.0.1', customer: 'Acme', baseVersion: '3' } });
    const b = await enqueue(note(2));
    const c = await enqueue(note(3));
    await replayOutbox();
    expect((await entries()).map((e) => e.state)).toEqual(['dead', 'dead', 'dead']);
    reject = false;
    await edit(a.id, { ip: '10.0.0.1', customer: 'Acme', baseVersion: '7' });
    await retry(b.id);
    await discard(c.id);
    await replayOutbox();
    const resent = calls.slice(3);
    expect(resent.map((x) => x.body)).toEqual([{ ip: '10.0.0.1', customer: 'Acme', baseVersion: '7' }, { ip: '10.0.0.1', text: 'note 2' }]);
    expect(resent.map((x) => x.key)).not.toContain(a.id);
    expect(resent.map((x) => x.key)).not.toContain(b.id);
    expect(await entries()).toEqual([]);
  });

  it('401 pauses the whole queue with nothing lost and resumes in order after login', async () => {
    let session = false;
    const calls = mockFetch(() => (session ? { status: 200 } : { status: 401, body: { code: '401', msg: 'Please log in', data: '/login' } }));
    const events: string[] = [];
    subscribeOutbox((e) => events.push(e.type));
    await enqueue(note(1));
    await enqueue(note(2));
    await replayOutbox();
    expect(isOutboxPaused()).toBe(true);
    expect(events).toEqual(['paused']);
    expect(calls).toHaveLength(1);
    expect((await entries()).map((e) => e.state)).toEqual(['pending', 'pending']);
    await enqueue(note(3));
    await replayOutbox({ force: true });
    expect(calls).toHaveLength(1); // paused: nothing sent
    session = true;
    resumeOutbox();
    await replayOutbox();
    expect(isOutboxPaused()).toBe(false);
    expect(calls.slice(1).map((c) => (c.body as { text: string }).text)).toEqual(['note 1', 'note 2', 'note 3']);
    expect(calls[0]!.key).toBe(calls[1]!.key);
    expect(events).toEqual(['paused', 'resumed', 'applied', 'applied', 'applied']);
    expect(await entries()).toEqual([]);
  });

  it('an entry a closed page left "sending" is sent again (same key) at the next start', async () => {
    resetOutboxForTests();
    const calls = mockFetch();
    const orphan: OutboxEntry = {
      id: '019a0000-0000-7000-8000-000000000001',
      kind: 'miner.note',
      method: 'POST',
      url: '/api/miner/notes',
      body: { ip: '10.0.0.1', text: 'orphan' },
      agentKey: 'farm-a',
      label: 'Note',
      created: clock - 1000,
      attempts: 1,
      state: 'sending',
      nextAttemptAt: 0,
      lastError: null,
    };
    await resetDb.outbox.add(orphan);
    startOutbox({ now: () => clock, random: () => 0.5 });
    await vi.waitFor(async () => expect(await entries()).toEqual([]));
    expect(calls.map((c) => c.key)).toEqual([orphan.id]);
  });

  it('a 200 that is not our envelope (captive portal) is not taken as applied', async () => {
    vi.stubGlobal('fetch', async () => ({ ok: true, status: 200, statusText: 'OK', text: async () => '<html>login to wifi</html>' }) as unknown as Response);
    await enqueue(note(1));
    await replayOutbox();
    expect((await entries())[0]).toMatchObject({ state: 'failed', attempts: 1 });
    // Not our server: the page is told the server is unreachable (connectivity.ts).
    expect(getConnectivity().reason).toBe('server-unreachable');
  });

  it('reports to connectivity, and the server answering again sends a failed entry at once (no backoff wait)', async () => {
    let down = true;
    const calls = mockFetch(() => (down ? 'network' : { status: 200 }));
    await enqueue(note(1));
    await vi.waitFor(async () => expect((await entries())[0]).toMatchObject({ state: 'failed', attempts: 1 }));
    expect(getConnectivity().reason).toBe('server-unreachable');
    down = false;
    reportServerAnswer(); // what the probe (or any other request) does when the server answers
    await vi.waitFor(async () => expect(await entries()).toEqual([]));
    expect(calls).toHaveLength(2);
    expect(getConnectivity().reason).toBe('online');
  });
});

describe('outbox: whose changes', () => {
  afterEach(async () => {
    setOutboxUser(null);
    await replayOutbox(); // the run that change kicks ends here, not in the next test
  });

  it('stamps each entry with its author and sends, counts and lists only the logged-in user’s', async () => {
    let down = true;
    const calls = mockFetch(() => (down ? 'network' : { status: 200 }));
    setOutboxUser('u-a');
    const a1 = await enqueue(note(1));
    await enqueue(note(2));
    await replayOutbox();
    expect((await entries()).map((e) => e.userId)).toEqual(['u-a', 'u-a']);
    expect(calls).toHaveLength(1);

    // Another technician logs in on the same phone: A's changes are not sent under B's session, nor shown to B.
    down = false;
    setOutboxUser('u-b');
    await replayOutbox({ force: true });
    expect(calls).toHaveLength(1);
    expect(await outboxCounts('u-b')).toEqual({ pending: 0, failed: 0, dead: 0 });
    expect(await outboxCounts('u-a')).toEqual({ pending: 1, failed: 1, dead: 0 });
    await enqueue(note(3));
    await replayOutbox({ force: true });
    expect(calls.map((c) => (c.body as { text: string }).text)).toEqual(['note 1', 'note 3']);
    expect((await entries()).map((e) => e.id)).toEqual([a1.id, (await entries())[1]!.id]);

    // Nobody known (logged out): A's wait still.
    setOutboxUser(null);
    await replayOutbox({ force: true });
    expect(calls).toHaveLength(2);

    // A logs in again: the change of user alone sends theirs, in order, under the same key for the one tried before.
    setOutboxUser('u-a');
    await vi.waitFor(async () => expect(await entries()).toEqual([]));
    expect(calls.slice(2).map((c) => [(c.body as { text: string }).text, c.key === a1.id])).toEqual([
      ['note 1', true],
      ['note 2', false],
    ]);
  });

  it('an entry of a user who logged out while their batch was being sent waits for them', async () => {
    const sent: string[] = [];
    let release!: () => void;
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      const text = (JSON.parse(String(init.body)) as { text: string }).text;
      sent.push(text);
      if (text === 'note 1') await new Promise<void>((r) => (release = r));
      return { ok: true, status: 200, statusText: '', text: async () => JSON.stringify({ code: 0, msg: 'success', data: null }) } as unknown as Response;
    });
    // Both in the batch A's replay reads (queued while A's session had expired, say).
    const queued = (n: number): OutboxEntry => ({ ...note(n), id: `o-${n}`, method: 'POST', userId: 'u-a', created: n, attempts: 0, state: 'pending', nextAttemptAt: 0, lastError: null });
    await resetDb.outbox.bulkAdd([queued(1), queued(2)]);
    setOutboxUser('u-a');
    await vi.waitFor(() => expect(sent).toEqual(['note 1']));
    setOutboxUser('u-b');
    release();
    await replayOutbox();
    expect(sent).toEqual(['note 1']);
    expect((await entries()).map((e) => [e.userId, e.state])).toEqual([['u-a', 'pending']]);
  });

  it('entries queued before entries carried an author are anyone’s', async () => {
    const calls = mockFetch(() => ({ status: 200 }));
    await resetDb.outbox.add({ ...(await enqueueHeld()), userId: undefined } as OutboxEntry);
    setOutboxUser('u-b');
    await vi.waitFor(() => expect(calls).toHaveLength(1));
  });
});

/** An entry as enqueue builds it, taken out of the outbox before it is sent (no user known: it stays untouched). */
async function enqueueHeld(): Promise<OutboxEntry> {
  setOutboxUser('u-held');
  const e = await enqueue(note(9));
  await resetDb.outbox.delete(e.id);
  setOutboxUser(null);
  return e;
}
