import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@sim/fleet';
import { tariffAt } from '@sim/services/tariff';
import { httpRequest, rpcRaw } from '@sim/sim-client';

// pool observer, tariff feed and the control API; this file owns 127.21.5.0/24 (and 127.22.0.0/16 for the scale test)
let fleet: Fleet;
const ctl = (path: string, method = 'GET', body?: unknown) =>
  httpRequest('127.0.0.1', fleet.ports.control, { method, path, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });

beforeAll(async () => {
  fleet = await startFleet({ miners: 40, cidr: '127.21.5.0/24', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 21 });
});
afterAll(async () => { await fleet?.close(); });

describe('pool observer', () => {
  it('reports the account hashrate from its workers and drops hijacked miners', async () => {
    const account = fleet.miners[0]!.pools[0]!.user.split('.')[0]!;
    const mine = fleet.miners.filter((m) => m.pools[0]!.user.startsWith(`${account}.`));
    const r = await ctl(`/observer/${account}?coin=BTC`);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body);
    expect(body).toMatchObject({ status: 0, account, coin: 'BTC' });
    expect(['TH/s', 'PH/s']).toContain(body.unit);
    const expected = mine.reduce((s, m) => s + m.hashrateGhs, 0);
    expect(body.hashrateGhs).toBeGreaterThan(expected * 0.95);
    expect(body.workers.total).toBe(mine.length);
    mine[0]!.injectFault('illegal-pool');
    const after = JSON.parse((await ctl(`/observer/${account}?coin=BTC`)).body);
    expect(after.workers.total).toBe(mine.length - 1);
    mine[0]!.injectFault('illegal-pool', false);
    const html = await httpRequest('127.0.0.1', fleet.ports.control, { path: `/observer/${account}?coin=BTC`, headers: { Accept: 'text/html' } });
    expect(html.headers['content-type']).toMatch(/text\/html/);
    expect(html.body).toContain('id="hashrate"');
    expect((await ctl('/observer/nobody?coin=BTC')).status).toBe(404);
    expect((await ctl(`/observer/${account}?coin=LTC`)).status).toBe(404);
  });
});

describe('tariff feed', () => {
  it('serves a price per kWh stable within a 5-minute interval and varying across intervals', async () => {
    const t = JSON.parse((await ctl('/tariff')).body);
    expect(t).toMatchObject({ currency: 'USD', unit: 'kWh', intervalMinutes: 5 });
    expect(t.pricePerKwh).toBeGreaterThan(0);
    expect(Date.parse(t.validTo) - Date.parse(t.validFrom)).toBe(300_000);
    const base = Date.parse('2025-01-01T00:00:00Z');
    expect(tariffAt(21, base + 1000).price).toBe(tariffAt(21, base + 299_000).price);
    const prices = new Set(Array.from({ length: 24 }, (_, i) => tariffAt(21, base + i * 300_000).price));
    expect(prices.size).toBeGreaterThan(5);
    const at = JSON.parse((await ctl('/tariff?at=2025-01-01T00:01:00Z')).body);
    expect(at.price).toBe(tariffAt(21, base).price);
  });
});

describe('control API', () => {
  it('lists, inspects, injects faults/quirks, sets passwords and fault rates', async () => {
    const list = JSON.parse((await ctl('/miners?limit=5&offset=2')).body);
    expect(list.total).toBe(40);
    expect(list.items).toHaveLength(5);
    const ip = list.items[0].ip as string;
    expect(JSON.parse((await ctl(`/miners/${ip}`)).body).ip).toBe(ip);
    const f = JSON.parse((await ctl(`/miners/${ip}/fault`, 'POST', { kind: 'offline', on: true })).body);
    expect(f.state).toBe('offline');
    await expect(rpcRaw(ip, fleet.ports.rpc, { command: 'version' })).rejects.toThrow();
    await ctl(`/miners/${ip}/fault`, 'POST', { kind: 'offline', on: false });
    // Powered off: nothing answers on any port (a reset would reject at once, here only the caller's timeout ends it).
    expect((await ctl(`/miners/${ip}/fault`, 'POST', { kind: 'offline', on: true, answer: 'silent' })).status).toBe(200);
    const t0 = performance.now();
    await expect(rpcRaw(ip, fleet.ports.rpc, { command: 'version' }, 400)).rejects.toThrow('timeout');
    await expect(httpRequest(ip, fleet.ports.web, { path: '/', timeoutMs: 400 })).rejects.toThrow('timeout');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(750);
    await ctl(`/miners/${ip}/fault`, 'POST', { kind: 'offline', on: false });
    expect(JSON.parse((await rpcRaw(ip, fleet.ports.rpc, { command: 'version' })).text).VERSION).toBeDefined();
    expect((await ctl(`/miners/${ip}/fault`, 'POST', { kind: 'offline', answer: 'maybe' })).status).toBe(400);
    expect((await ctl(`/miners/${ip}/fault`, 'POST', { kind: 'fan-failure', answer: 'silent' })).status).toBe(400);
    fleet.miner(ip)!.offlineAnswer = undefined;
    expect((await ctl(`/miners/${ip}/quirk`, 'POST', { quirk: 'truncated' })).status).toBe(200);
    expect(fleet.miner(ip)!.quirk).toBe('truncated');
    await ctl(`/miners/${ip}/quirk`, 'POST', { quirk: 'none' });
    expect((await ctl(`/miners/${ip}/quirk`, 'POST', { quirk: 'bogus' })).status).toBe(400);
    await ctl(`/miners/${ip}/password`, 'POST', { password: 'pw2' });
    expect(fleet.miner(ip)!.web.password).toBe('pw2');
    await ctl(`/miners/${ip}/serial`, 'POST', { sn: '' });
    expect(fleet.miner(ip)!.sn).toBe('');
    const rates = JSON.parse((await ctl('/faults/rates', 'POST', { 'fan-failure': 0.5 })).body);
    expect(rates['fan-failure']).toBe(0.5);
    expect((await ctl('/faults/rates', 'POST', { bogus: 1 })).status).toBe(400);
    expect((await ctl('/miners/10.0.0.1')).status).toBe(404);
  });
});

describe('scale', () => {
  it('starts 20,000 miners in a few seconds and answers a burst of requests', async () => {
    const t0 = Date.now();
    const big = await startFleet({ miners: 20_000, cidr: '127.22.0.0/16', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 2, faultRates: { 'fan-failure': 0.001, offline: 0.001 } });
    const startMs = Date.now() - t0;
    try {
      expect(startMs).toBeLessThan(5000);
      const t1 = Date.now();
      const targets = big.miners.filter((m) => m.state === 'online' && m.apiUp).slice(0, 1000);
      let ok = 0;
      for (let i = 0; i < targets.length; i += 200) {
        const res = await Promise.all(targets.slice(i, i + 200).map((m) => rpcRaw(m.ip, big.ports.rpc, { command: 'summary' }).then(() => 1, () => 0)));
        ok += res.reduce<number>((s, x) => s + x, 0);
      }
      const rps = (targets.length / (Date.now() - t1)) * 1000;
      console.log(`scale: start ${startMs} ms, ${targets.length} summaries at ${Math.round(rps)} req/s, rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
      expect(ok).toBe(targets.length);
    } finally {
      await big.close();
    }
  }, 30_000);
});
