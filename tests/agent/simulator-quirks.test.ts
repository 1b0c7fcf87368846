import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet } from '@sim/fleet';
import type { SimMiner } from '@sim/devices/sim-miner';
import type { NetQuirk } from '@sim/sim-types';
import { httpRequest, rpcRaw } from '@sim/sim-client';

// network/format quirks of §10.1-10.2; this file owns 127.21.2.0/24
let fleet: Fleet;
let stock: SimMiner;
let whats: SimMiner;

beforeAll(async () => {
  fleet = await startFleet({ miners: 6, cidr: '127.21.2.0/24', rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 11, mix: { 'antminer-stock': 1, whatsminer: 1 } });
  stock = fleet.miners.find((m) => m.family === 'antminer-stock')!;
  whats = fleet.miners.find((m) => m.family === 'whatsminer' && m.firmware.date >= '20220729')!;
});
afterAll(async () => { await fleet?.close(); });

/** pyasic's `_load_api_data` repairs (§10.2), applied to prove each quirk is the real-world defect. */
function pyasicRepair(s: string): string {
  let t = s.replace(/\0$/, '');
  t = t.replace(/,}/g, '}').replace(/\n/g, '').replace(/}{/g, '},{').replace(/\[,\{/g, '[{').replace(/""temp/g, '","temp');
  t = t.replace(/\binf\b/g, '0').replace(/\bnan\b/g, '0');
  if (t.startsWith(',')) t = `{${t.slice(1)}`;
  if (/"error_code":\[".*?"\]/.test(t)) t = t.replace(/("error_code":)\[(.*?)\]/, '$1[{$2}]');
  if (!t.endsWith('}')) t = `${t.slice(0, t.lastIndexOf(','))}}`;
  return t;
}

describe('malformed JSON quirks', () => {
  const cases: Array<{ quirk: NetQuirk; cmd: string; repairable: boolean }> = [
    { quirk: 'trailing-comma', cmd: 'summary', repairable: true },
    { quirk: 'raw-newline', cmd: 'summary', repairable: true },
    { quirk: 'concatenated-objects', cmd: 'stats', repairable: true },
    { quirk: 'missing-comma', cmd: 'version', repairable: false },
    { quirk: 'inf-nan', cmd: 'summary', repairable: true },
    { quirk: 'truncated', cmd: 'stats', repairable: false },
    { quirk: 'leading-comma', cmd: 'summary', repairable: true },
    { quirk: 'bracket-comma', cmd: 'pools', repairable: true },
  ];
  for (const c of cases) {
    it(`${c.quirk} makes the ${c.cmd} reply invalid JSON`, async () => {
      stock.setQuirk(c.quirk);
      try {
        const r = await rpcRaw(stock.ip, fleet.ports.rpc, { command: c.cmd });
        expect(r.endedWithNul).toBe(true);
        expect(() => JSON.parse(r.text)).toThrow();
        if (c.repairable) expect(() => JSON.parse(pyasicRepair(r.text))).not.toThrow();
      } finally {
        stock.setQuirk('none');
      }
      expect(() => JSON.parse(stock.quirk === 'none' ? '{}' : '')).not.toThrow();
    });
  }

  it('Whatsminer error_code list written with dict content', async () => {
    whats.injectFault('fan-failure');
    whats.setQuirk('error-code-brackets');
    try {
      const r = await rpcRaw(whats.ip, fleet.ports.rpc, { cmd: 'get_error_code' });
      expect(r.text).toMatch(/"error_code":\["110":"/);
      expect(() => JSON.parse(r.text)).toThrow();
    } finally {
      whats.setQuirk('none');
      whats.injectFault('fan-failure', false);
    }
  });

  it('clean replies parse again after the quirk is cleared', async () => {
    const r = await rpcRaw(stock.ip, fleet.ports.rpc, { command: 'summary' });
    expect(() => JSON.parse(r.text)).not.toThrow();
  });
});

describe('connection quirks', () => {
  it('reset drops the connection without a reply on RPC and web', async () => {
    stock.setQuirk('reset');
    try {
      await expect(rpcRaw(stock.ip, fleet.ports.rpc, { command: 'summary' })).rejects.toThrow();
      await expect(httpRequest(stock.ip, fleet.ports.web, { path: '/' })).rejects.toThrow();
    } finally {
      stock.setQuirk('none');
    }
  });

  it('slow delays the reply by seconds', async () => {
    stock.setQuirk('slow');
    try {
      const t0 = Date.now();
      const r = await rpcRaw(stock.ip, fleet.ports.rpc, { command: 'version' }, 6000);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(2400);
      expect(() => JSON.parse(r.text)).not.toThrow();
    } finally {
      stock.setQuirk('none');
    }
  });
});
