import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAgentKey, setAgentKey } from './agent-key';
import { SHELL_API_CACHE, endSession, isExternalAddress } from './end-session';
import { resetConnectivityForTests } from './offline/connectivity';
import { resetOfflineDbForTests } from './offline/db';
import { countMiners } from './offline/miner-store';
import { outboxUser, setOutboxUser } from './offline/outbox-user';
import { putTestMiners, testMinerRow } from './offline/test-miner-row';

afterEach(() => {
  vi.unstubAllGlobals();
  setOutboxUser(null);
});

describe('endSession', () => {
  it('logs out on the server, forgets the farm and the outbox user, drops the offline copies, answers where to go', async () => {
    const db = resetOfflineDbForTests();
    await putTestMiners([{ ...testMinerRow(), agentKey: 'farm-a' }]);
    await db.outbox.add({ id: 'o-1', kind: 'miner.note', method: 'POST', url: '/api/miner/notes', body: {}, agentKey: 'farm-a', userId: 'u-a', label: 'Note', created: 1, attempts: 0, state: 'pending', nextAttemptAt: 0, lastError: null });
    setAgentKey('farm-a');
    setOutboxUser('u-a');
    const urls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      urls.push(url);
      return { ok: true, status: 200, statusText: 'OK', json: async () => ({ code: 0, msg: 'success', data: 'https://sso.example/logout' }) };
    });
    const to = await endSession();
    expect(urls.map((u) => new URL(u, 'http://x').pathname)).toEqual(['/api/userv3/logout']);
    expect(to).toBe('https://sso.example/logout');
    expect(isExternalAddress(to)).toBe(true);
    expect(isExternalAddress('/login')).toBe(false);
    expect(getAgentKey()).toBeNull();
    expect(outboxUser()).toBeNull();
    expect(await countMiners('farm-a')).toBe(0);
    expect(await db.outbox.count()).toBe(1);
  });

  it('still leaves (to /login) when the server cannot be reached', async () => {
    resetOfflineDbForTests();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await endSession()).toBe('/login');
  });

  it('does not wait for ever for a sync run still in flight', async () => {
    resetOfflineDbForTests();
    resetConnectivityForTests();
    const sync = await import('./offline/sync');
    let release!: () => void;
    vi.stubGlobal('fetch', async (url: string) => {
      if (url.includes('/api/sync/')) await new Promise<void>((r) => (release = r));
      return { ok: true, status: 200, statusText: 'OK', json: async () => ({ code: 0, msg: 'success', data: '/login' }) };
    });
    const running = sync.syncNow('farm-a');
    await vi.waitFor(() => expect(release).toBeTypeOf('function'));
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const leaving = endSession();
      await vi.advanceTimersByTimeAsync(3000);
      expect(await leaving).toBe('/login');
      release();
      await running.catch(() => undefined);
    } finally {
      vi.useRealTimers();
    }
  });

  it('names the service worker’s shell cache as sw/sw.ts does', () => {
    expect(readFileSync(join(process.cwd(), 'sw/sw.ts'), 'utf8')).toContain(`SHELL_API_CACHE = '${SHELL_API_CACHE}'`);
  });
});
