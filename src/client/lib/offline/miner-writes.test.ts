import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MinerSyncRow } from '@shared/schemas/sync';
import { type Cached, resetOfflineDbForTests } from './db';
import { MINER_WRITE_KINDS, customerConflict, pendingCustomer, queueMinerCustomer, queueMinerFault, registerMinerWrites } from './miner-writes';
import { replayOutbox, resetOutboxForTests, settleOutboxForTests, startOutbox } from './outbox';
import { getMiner } from './miner-store';
import { setOutboxUser } from './outbox-user';
import { putTestMiners, testMinerRow } from './test-miner-row';

const AGENT = 'farm-a';
const IP = '10.0.0.7';

function cachedMiner(extra: Partial<MinerSyncRow> = {}): Cached<MinerSyncRow> {
  return {
    agentKey: AGENT,
    ...testMinerRow({ ip: IP, make: 'Antminer', statuses: ['online'], gHS5s: 0, gHSav: 0, rateIdeal: 0, tempChipMax: null, tempPcbMax: null, fanMin: null, fanMax: null, takenAt: new Date().toISOString(), marksVersion: '5', version: '100' }),
    ...extra,
  };
}

let db = resetOfflineDbForTests();

beforeEach(() => {
  resetOutboxForTests();
  db = resetOfflineDbForTests();
  registerMinerWrites();
  startOutbox({ random: () => 0.5 });
});
afterEach(async () => {
  await settleOutboxForTests();
  resetOutboxForTests();
  vi.unstubAllGlobals();
});

describe('miner writes', () => {
  it('queued customer changes follow the marks versions of the fault and change applied before them', async () => {
    await putTestMiners([cachedMiner()]);
    let online = false;
    const sent: { url: string; body: Record<string, unknown> }[] = [];
    let version = 5;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      if (!online) throw new TypeError('Failed to fetch');
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      sent.push({ url, body });
      version += 1;
      const data = url.endsWith('/customer') ? { marksVersion: String(version) } : { id: body.id, marksVersion: String(version) };
      return { ok: true, status: 200, statusText: 'OK', text: async () => JSON.stringify({ code: 0, msg: 'success', data }) } as unknown as Response;
    });
    await queueMinerFault(AGENT, IP, 'fan-speed-abnormal', 'fan 1', 'Fault');
    await queueMinerCustomer(AGENT, IP, 'Acme', '5', 'Customer → Acme');
    await queueMinerCustomer(AGENT, IP, 'Beta', '5', 'Customer → Beta');
    await replayOutbox();
    const queued = await db.outbox.orderBy('created').toArray();
    expect(queued.map((e) => e.kind)).toEqual([MINER_WRITE_KINDS.fault, MINER_WRITE_KINDS.customer, MINER_WRITE_KINDS.customer]);
    expect(pendingCustomer(queued)).toEqual({ customer: 'Beta' });

    online = true;
    await replayOutbox({ force: true });
    expect(sent.map((s) => [s.url, s.body.baseVersion ?? s.body.kind])).toEqual([
      ['/api/miner/notes', 'fault'],
      ['/api/miner/customer', '6'],
      ['/api/miner/customer', '7'],
    ]);
    expect(await db.outbox.count()).toBe(0);
    const miner = await getMiner(AGENT, 'm-1');
    expect(miner).toMatchObject({ customer: 'Beta', marksVersion: '8', accident: 'fan-speed-abnormal', accidentNote: 'fan 1' });
  });

  it('a change applied by one user does not rebase another user’s waiting change of the same miner', async () => {
    await putTestMiners([cachedMiner()]);
    let online = false;
    const sent: Record<string, unknown>[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      if (!online) throw new TypeError('Failed to fetch');
      sent.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return { ok: true, status: 200, statusText: 'OK', text: async () => JSON.stringify({ code: 0, msg: 'success', data: { marksVersion: '6' } }) } as unknown as Response;
    });
    try {
      // A's change, never sent: A's session had expired (a 401 leaves entries pending, as if never tried).
      setOutboxUser('u-a');
      const a = await queueMinerCustomer(AGENT, IP, 'Acme', '5', 'Customer → Acme');
      await replayOutbox();
      await db.outbox.update(a.id, { state: 'pending', attempts: 0, lastError: null });
      setOutboxUser('u-b');
      await queueMinerCustomer(AGENT, IP, 'Beta', '5', 'Customer → Beta');
      await replayOutbox();
      online = true;
      await replayOutbox({ force: true });
      expect(sent).toEqual([expect.objectContaining({ customer: 'Beta', baseVersion: '5' })]);
      // A's change still says what A saw: applied later it meets the server's 409 and A decides.
      const [waiting] = await db.outbox.toArray();
      expect(waiting).toMatchObject({ userId: 'u-a', attempts: 0, body: { customer: 'Acme', baseVersion: '5' } });
    } finally {
      setOutboxUser(null);
    }
  });

  it('reads the server value a 409 carries', () => {
    const entry = { lastError: { status: 409, message: 'changed', data: { current: { customer: 'Beta', marksVersion: '9' } } } };
    expect(customerConflict(entry as never)).toEqual({ customer: 'Beta', marksVersion: '9' });
    expect(customerConflict({ lastError: { status: 400, message: 'bad' } } as never)).toBeNull();
  });
});
