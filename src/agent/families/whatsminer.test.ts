import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriverEnv, MinerHandle } from '../miner-types';
import { parseWhatsminerErrors, whatsminerDriver, whatsminerV2Summary } from './whatsminer';

/**
 * Whatsminer API v2 replies in the shapes real btminer builds send (key names and envelopes of recorded units; the
 * values are made up), read through the driver from a loopback server.
 */

const SUMMARY_FIELDS = {
  Elapsed: 7200, 'MHS av': 84100000.5, 'MHS 5s': 85200000.25, 'MHS 1m': 84900000.75, 'MHS 5m': 84300000.0, 'MHS 15m': 84200000.5,
  'HS RT': 84300000.0, Accepted: 812, Rejected: 1, Temperature: 78.0, freq_avg: 610, 'Fan Speed In': 4620, 'Fan Speed Out': 4590,
  Power: 3420, 'Power Rate': 40.3, Uptime: 9100, 'Hash Stable': true, 'Target Freq': 590, 'Env Temp': 29.5, 'Power Mode': 'Normal',
  'Factory GHS': 86000, 'Power Limit': 3600, 'Chip Temp Min': 71.5, 'Chip Temp Max': 88.25, 'Chip Temp Avg': 80.1,
  'Btminer Fast Boot': 'disable',
};

function devRow(slot: number, chips: number) {
  return {
    ASC: slot, Slot: slot, Enabled: 'Y', Status: 'Alive', Temperature: 70 + slot, 'Chip Frequency': 605, 'MHS av': 28000000.5 + slot,
    'MHS 5s': 27500000.0, 'MHS 1m': 28100000.25 + slot * 1000, 'MHS 5m': 28050000.0, 'MHS 15m': 28010000.0, Accepted: 270, Rejected: 0,
    'Upfreq Complete': 1, 'Effective Chips': chips, 'PCB SN': `HEM1TEST0000${slot}`, 'Chip Temp Min': 72.5 + slot, 'Chip Temp Max': 87.5 + slot, 'Chip Temp Avg': 80.0,
  };
}

const cgStatus = (code: number, msg: string) => [{ STATUS: 'S', When: 1760000000, Code: code, Msg: msg, Description: 'btminer' }];
const flat = (code: number, msg: unknown) => ({ STATUS: 'S', When: 1760000000, Code: code, Msg: msg, Description: '' });

/** Summary in the btminer-native flat envelope (the summary object in `Msg`, no SUMMARY array). */
const REPLIES: Record<string, unknown> = {
  summary: flat(131, { ...SUMMARY_FIELDS, MAC: 'C4:08:28:11:22:33', 'Firmware Version': "'20240109.22.REL'" }),
  pools: {
    STATUS: cgStatus(7, '1 Pool(s)'),
    POOLS: [{ POOL: 1, URL: 'stratum+tcp://btc.pool.example:3333', Status: 'Alive', Priority: 0, Accepted: 812, Rejected: 1, User: 'farm.wm01', 'Stratum Active': true }],
    id: 1,
  },
  edevs: { STATUS: cgStatus(9, '3 ASC(s)'), DEVS: [devRow(0, 156), devRow(1, 156), devRow(2, 150)], id: 1 },
  status: flat(131, { mineroff: 'false', mineroff_reason: '', power_mode: 'normal', FirmwareVersion: "'20240109.22.REL'" }),
  // API 2.0.4: code/time pairs as list items
  get_error_code: flat(131, { error_code: ['329', '2024-02-01 10:11:12'] }),
  get_miner_info: flat(131, { ip: '127.0.0.1', proto: 'dhcp', mac: 'C4:08:28:11:22:33', ledstat: 'auto', minersn: 'HTM3TEST0001', hostname: 'WhatsMiner' }),
};

let server: net.Server;
let port = 0;

beforeAll(async () => {
  server = net.createServer((sock) => {
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString('utf8');
      let req: Record<string, unknown>;
      try {
        req = JSON.parse(buf.replace(/\0+$/, '')) as Record<string, unknown>;
      } catch {
        return;
      }
      const cmd = String(req['command'] ?? req['cmd'] ?? '');
      const parts = cmd.split('+');
      const reply = parts.length > 1 ? Object.fromEntries(parts.map((c) => [c, [REPLIES[c]]])) : (REPLIES[cmd] ?? { STATUS: 'E', Code: 14, Msg: 'invalid cmd', Description: '' });
      sock.end(JSON.stringify(reply) + '\0');
    });
    sock.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function env(): DriverEnv {
  return {
    ports: { rpc: port, web: 1, whatsminerV3: 1 },
    credentials: { antminer: [], whatsminer: [], braiins: [], vnish: [], luxos: [] },
    connectTimeoutMs: 1000,
    rpcTimeoutMs: 3000,
    webTimeoutMs: 3000,
    detailEveryCycles: 5,
  };
}

describe('whatsminer v2 read: real reply shapes', () => {
  it('summary in the flat btminer envelope: MH/s → GH/s, fans, boards, errors without the time strings', async () => {
    const h: MinerHandle = {
      id: { ip: '127.0.0.1', family: 'whatsminer', make: 'Whatsminer', model: 'M30S+ VE40', reportedModel: 'M30S+_VE40', firmwareVersion: '20240109.22.REL', compileTime: null, whatsminerApi: 'v2' },
      cycle: 0,
    };
    const r = await whatsminerDriver.read(h, env());
    expect(r.rt5s).toBe(85200);
    expect(r.avg).toBe(84100);
    expect(r.rate30m).toBe(84200);
    expect(r.ideal).toBe(86000);
    expect(r.fans).toEqual([4620, 4590]);
    expect(r.powerW).toBe(3420);
    expect(r.elapsedSec).toBe(7200);
    expect(r.boards).toHaveLength(3);
    expect(r.boards.map((b) => b.chips)).toEqual([156, 156, 150]);
    expect(r.boards.map((b) => b.rateGhs)).toEqual([28100, 28101, 28102]);
    expect(r.boards[0]?.tempPcb).toEqual([70]);
    expect(r.boards[0]?.tempChip).toEqual([72.5, 87.5]);
    expect(r.boards[2]?.sn).toBe('HEM1TEST00002');
    expect(r.pools).toEqual([{ url: 'stratum+tcp://btc.pool.example:3333', user: 'farm.wm01', status: 'alive', active: true, accepted: 812, rejected: 1 }]);
    expect(r.errorCodes).toEqual([{ code: 329, message: 'Control board temperature sensor communication error.' }]);
    expect(r.sn).toBe('HTM3TEST0001');
    expect(r.workMode).toBe('normal');
  });
});

describe('whatsminerV2Summary', () => {
  it('reads SUMMARY[0] of the cgminer envelope and Msg of the flat one', () => {
    expect(whatsminerV2Summary({ STATUS: cgStatus(11, 'Summary'), SUMMARY: [{ 'MHS 5s': 1 }], id: 1 })).toEqual({ 'MHS 5s': 1 });
    expect(whatsminerV2Summary(flat(131, { 'MHS 5s': 2 }))).toEqual({ 'MHS 5s': 2 });
    expect(whatsminerV2Summary({})).toEqual({});
  });
});

describe('parseWhatsminerErrors', () => {
  it('v2 list of {code: time} objects', () => {
    expect(parseWhatsminerErrors([{ '110': '2024-06-15 09:15:00' }, { '218': '2024-06-15 10:30:00' }]).map((e) => e.code)).toEqual([110, 218]);
  });
  it('API 2.0.4 dict-in-list repaired to one object', () => {
    expect(parseWhatsminerErrors({ '110': '2024-06-15 09:15:00', '2010': '2024-06-15 09:16:00' }).map((e) => e.code)).toEqual([110, 2010]);
  });
  it('code and time as list items: the time is not an error', () => {
    expect(parseWhatsminerErrors(['329', '2022-01-17 11:28:11', 600, '2022-01-17 11:30:02'])).toEqual([
      { code: 329, message: 'Control board temperature sensor communication error.' },
      { code: 600, message: 'Environment temperature is too high.' },
    ]);
  });
  it('v3 entries with a reason, and a bare text', () => {
    expect(parseWhatsminerErrors([{ '264': '2026-05-23 09:19:10', reason: 'Power xfer error.' }])).toEqual([{ code: 264, message: 'Power xfer error.' }]);
    expect(parseWhatsminerErrors('btminer process is down err')).toEqual([{ code: 0, message: 'btminer process is down err' }]);
  });
});
