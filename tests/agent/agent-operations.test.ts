import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet, type SimMiner } from '@sim/fleet';
import { stockFirmware } from '@sim/devices/firmware-catalogue';
import type { AgentTask, TaskMinerResult } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { runTask, type ExecutorDeps } from '@agent/executor';
import { withChangedPasswords } from '@agent/farm-agent';
import type { DriverEnv } from '@agent/miner-types';
import { simDriverEnv } from '../support/sim-driver-env';
import { Poller } from '@agent/poller';
import { AntminerWeb } from '@agent/protocols/antminer-web';
import { httpRequest } from '@agent/protocols/http-client';
import { WhatsminerV2, WhatsminerV3 } from '@agent/protocols/whatsminer';
import { scanRanges } from '@agent/scanner/scanner';

/**
 * Every batch operation against every simulated family over real sockets (127.51.0.0/24): the agent runs the
 * op through the family's real protocol, and the effect is checked in what the miner reports on the next poll
 * (or, for settings the snapshot does not carry, in the miner's own protocol answer).
 */

const CIDR = '127.51.0.0/24';
const DARK_MS = 1200;
let fleet: Fleet;
let env: DriverEnv;
let poller: Poller;
const cycleOpts = { offlineAfterMissed: 3, poolWhitelist: [] as string[][] };
const files = new Map<string, Buffer>();
const changed: Record<string, string[]> = {};

function deps(): ExecutorDeps {
  return {
    env: () => poller.getEnv(),
    handle: (ip) => poller.handle(ip),
    snapshot: (ip) => poller.lastSnapshot(ip),
    remove: (ip) => poller.removeMiner(ip),
    touched: (ip) => poller.invalidateDetail(ip),
    passwordChanged: (family, pw) => {
      const key = family === 'antminer-stock' ? 'antminer' : family;
      changed[key] = [pw, ...(changed[key] ?? []).filter((x) => x !== pw)];
      poller.setEnv({ ...env, credentials: withChangedPasswords(env.credentials, changed) });
    },
    fetchFile: async (url) => {
      const f = files.get(url);
      if (!f) throw new Error(`no file ${url}`);
      return f;
    },
  };
}

let taskN = 0;
async function run(op: AgentTask['op'], ms: SimMiner[], params: Record<string, unknown> = {}): Promise<TaskMinerResult[]> {
  for (const m of ms) await poller.pollOne(m.ip, cycleOpts);
  const task = { id: `op${++taskN}`, op, params, targets: ms.map((m) => ({ ip: m.ip })) } as AgentTask;
  return runTask(task, deps(), { pacing: { packetSize: 50, pauseMs: 0, concurrency: 10 } });
}
const poll = (m: SimMiner): Promise<MinerSnapshot | null> => poller.pollOne(m.ip, cycleOpts);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const used = new Set<string>();
function pick(label: string, pred: (m: SimMiner) => boolean): SimMiner {
  const m = fleet.miners.find((x) => pred(x) && !used.has(x.ip) && x.state === 'online' && x.activeFaults.length === 0);
  if (!m) throw new Error(`fleet lacks a miner for ${label}`);
  used.add(m.ip);
  return m;
}
const stockOld = () => pick('stock < 2023-07', (m) => m.family === 'antminer-stock' && m.firmware.date < '20230701');
const stockNew = () => pick('stock ≥ 2023-07', (m) => m.family === 'antminer-stock' && m.firmware.date >= '20230701');
const wmV2 = () => pick('whatsminer v2', (m) => m.family === 'whatsminer' && m.firmware.date >= '20220729' && m.firmware.date < '20241101');
const wmV3 = () => pick('whatsminer v3', (m) => m.family === 'whatsminer' && m.firmware.date >= '20241101');
const vnish = () => pick('vnish', (m) => m.family === 'vnish');
const bosRest = () => pick('braiins ≥ 25.07', (m) => m.family === 'braiins' && m.firmware.date >= '20250701');
const s19 = (pred: (m: SimMiner) => boolean = () => true) => pick('stock S19', (m) => m.family === 'antminer-stock' && /^antminer-s19/.test(m.model.id) && pred(m));

const allOk = (rs: TaskMinerResult[]) => expect(rs.filter((r) => !r.ok), JSON.stringify(rs)).toEqual([]);
const ratio = (s: MinerSnapshot | null) => (s && s.ideal > 0 ? s.rt5s / s.ideal : Number.NaN);

beforeAll(async () => {
  fleet = await startFleet({
    miners: 160,
    cidr: CIDR,
    rpcPort: 0,
    webPort: 0,
    whatsminerV3Port: 0,
    seed: 51,
    rebootDarkMs: DARK_MS,
    faultRates: {},
    mix: { 'antminer-stock': 4, whatsminer: 3, braiins: 2, vnish: 2 },
  });
  for (const m of fleet.miners) for (const f of m.activeFaults) m.injectFault(f, false);
  env = simDriverEnv(fleet);
  poller = new Poller(env);
  const found = await scanRanges([{ ipBegin: CIDR }], env, { concurrency: 200 });
  poller.upsertMiners(found.miners);
}, 30000);

afterAll(async () => {
  await fleet?.close();
});

describe('fans', () => {
  it('a fixed duty cycle is what the fans report next; auto gives control back (stock, VNish, Braiins)', async () => {
    const ms = [stockOld(), stockNew(), vnish(), bosRest()];
    allOk(await run('set-fans', ms, { mode: 'manual', percent: 40 }));
    for (const m of ms) {
      const s = await poll(m);
      expect(m.fanCtrl, m.family).toBe(true);
      expect(s!.fans.length, m.family).toBeGreaterThan(0);
      for (const rpm of s!.fans) expect(Math.abs(rpm - 6500 * 0.4), `${m.family} ${s!.fans.join(',')}`).toBeLessThan(200);
    }
    allOk(await run('set-fans', ms, { mode: 'auto' }));
    for (const m of ms) {
      const s = await poll(m);
      expect(m.fanCtrl, m.family).toBe(false);
      expect(Math.min(...s!.fans), m.family).toBeGreaterThan(2900);
    }
  });

  it('Whatsminer has no fan-speed command: refused with that reason, nothing changes', async () => {
    const m = wmV2();
    const [r] = await run('set-fans', [m], { mode: 'manual', percent: 40 });
    expect(r!.ok).toBe(false);
    expect(r!.reason).toMatch(/^unsupported-op: the Whatsminer API has no fan-speed setting/);
    expect(m.fanCtrl).toBe(false);
  });
});

describe('frequency, hashrate and power percent (stock Antminer)', () => {
  it('set frequency on an S19 writes freq-level against the nominal MHz; boards report it and the hashrate scales', async () => {
    const m = s19();
    const target = Math.round(m.model.freqMhz * 0.8);
    allOk(await run('set-frequency', [m], { freqMhz: target }));
    expect(m.freqLevel).toBe(80);
    await sleep(DARK_MS + 300); // bmminer restarted to apply the configuration
    const s = await poll(m);
    expect(s!.boards.map((b) => b.freqMhz)).toEqual(s!.boards.map(() => target));
    expect(ratio(s)).toBeGreaterThan(0.72);
    expect(ratio(s)).toBeLessThan(0.88);
    const [bad] = await run('set-frequency', [m], { freqMhz: m.model.freqMhz * 2 });
    expect(bad!.reason).toMatch(/^invalid-params: .*200 % of the nominal/);
    expect(m.freqLevel).toBe(80);
  });

  it('hashrate adjust on a new S21/T21 shows on the next poll', async () => {
    const m = pick('S21/T21 ≥ 20240520', (x) => (x.model.id === 'antminer-s21' || x.model.id === 'antminer-t21') && x.firmware.date >= '20240520');
    allOk(await run('adjust-hashrate', [m], { percent: 70 }));
    await sleep(DARK_MS + 300);
    const s = await poll(m);
    expect(ratio(s)).toBeGreaterThan(0.63);
    expect(ratio(s)).toBeLessThan(0.77);
  });

  it('power percent passes the capability rule but stock firmware has no such setting: an honest refusal', async () => {
    const m = s19((x) => x.firmware.date >= '20230701');
    m.firmware = stockFirmware(m.model, '20241015');
    await poll(m);
    const [r] = await run('power-percent', [m], { percent: 80 });
    expect(r!.ok).toBe(false);
    expect(r!.reason).toMatch(/^unsupported-op: stock Antminer web API has no power-percent setting/);
    expect(m.freqLevel).toBe(100);
  });

  it('high performance mode raises the hashrate above nominal (stock, Whatsminer)', async () => {
    const ms = [pick('stock with high mode', (x) => x.family === 'antminer-stock' && x.firmware.date >= '20230701' && x.model.workModes.includes('high')), wmV2()];
    allOk(await run('work-mode', ms, { mode: 'high' }));
    await sleep(DARK_MS + 300);
    for (const m of ms) {
      const s = await poll(m);
      expect(s!.workMode, m.family).toBe('high');
      expect(ratio(s), m.family).toBeGreaterThan(1.02);
    }
  });
});

describe('network back to DHCP', () => {
  it('every family with a network API reports DHCP afterwards; Braiins refuses', async () => {
    const st = stockNew();
    const v2 = wmV2();
    const v3 = wmV3();
    const vn = vnish();
    const bos = bosRest();
    for (const m of [st, v2, v3, vn, bos]) m.network = { ...m.network, dhcp: false, ip: m.ip, netmask: '255.255.255.0' };
    // the snapshot carries the network mode the firmware reports (read with the details)
    const withNet = [st, v2, v3, vn];
    const modes = async () => {
      for (const m of withNet) poller.invalidateDetail(m.ip);
      return Promise.all(withNet.map(async (m) => (await poll(m))?.networkMode));
    };
    await Promise.all(withNet.map(poll));
    expect(await modes()).toEqual(['static', 'static', 'static', 'static']);
    const res = await run('dhcp', [st, v2, v3, vn, bos]);
    expect(res.slice(0, 4).filter((r) => !r.ok), JSON.stringify(res)).toEqual([]);
    expect(res[4]!.reason).toMatch(/^unsupported-op/);
    const web = new AntminerWeb(st.ip, env.ports.web);
    expect((await web.getNetworkInfo())['nettype']).toBe('DHCP');
    expect((await new WhatsminerV2(v2.ip, env.ports.rpc).native('get_miner_info', { info: 'ip,proto' }))['proto']).toBe('dhcp');
    const info3 = (await new WhatsminerV3(v3.ip, env.ports.whatsminerV3).get('get.device.info', 'network')) as { network: { proto: string } };
    expect(info3.network.proto).toBe('dhcp');
    const vi = JSON.parse((await httpRequest(vn.ip, env.ports.web, '/api/v1/info')).body) as { system: { network_status: { dhcp: boolean } } };
    expect(vi.system.network_status.dhcp).toBe(true);
    expect(bos.network.dhcp).toBe(false);
    expect(await modes()).toEqual(['dhcp', 'dhcp', 'dhcp', 'dhcp']);
  });
});

describe('reboot, password, factory reset, firmware', () => {
  it('reboot: every family drops off and comes back with a fresh uptime', async () => {
    const ms = [stockOld(), wmV2(), wmV3(), vnish(), bosRest()];
    allOk(await run('reboot', ms));
    await sleep(50);
    for (const m of ms) expect((await poll(m))?.missedPolls, m.family).toBe(1);
    await sleep(DARK_MS + 300);
    for (const m of ms) {
      const s = await poll(m);
      expect(s?.missedPolls, `${m.family} ${poller.lastError(m.ip)}`).toBe(0);
      expect(s?.elapsedSec, m.family).toBeLessThan(10);
    }
  });

  it('password change: the miner takes the new password and the next poll still authenticates; VNish refuses', async () => {
    const st = stockNew();
    const v2 = wmV2();
    const v3 = wmV3();
    const bos = bosRest();
    const vn = vnish();
    const res = await run('change-password', [st, v2, v3, bos, vn], { newPassword: 'Farm_42' });
    expect(res.slice(0, 4).filter((r) => !r.ok), JSON.stringify(res)).toEqual([]);
    expect(res[4]!.reason).toMatch(/^unsupported-op/);
    expect(st.web.password).toBe('Farm_42');
    expect(v2.whatsminer.adminPassword).toBe('Farm_42');
    expect(v3.whatsminer.v3Password).toBe('Farm_42');
    expect(bos.web.password).toBe('Farm_42');
    for (const m of [st, v2, v3, bos]) {
      poller.invalidateDetail(m.ip);
      const s = await poll(m);
      expect(s?.missedPolls, m.family).toBe(0);
      expect(s?.errorCodes.filter((e) => e.code === -401), m.family).toEqual([]);
    }
    // the new password is what the writes use from now on, and miners still on the factory login keep working
    const others = [stockOld(), wmV2(), wmV3(), bosRest()];
    allOk(await run('blink-on', [st, v2, v3, bos, ...others]));
    expect([st, v2, v3, bos, ...others].map((m) => m.blink)).toEqual([true, true, true, true, true, true, true, true]);
  });

  it('factory reset restores factory pools and automatic fans; Braiins refuses', async () => {
    const st = stockNew();
    const v2 = wmV2();
    const v3 = wmV3();
    const vn = vnish();
    const bos = bosRest();
    const factory = new Map([st, v2, v3, vn].map((m) => [m.ip, m.pools.filter((p) => p.url).map((p) => p.url)]));
    const pools = [{ url: 'stratum+tcp://other.pool.example:3333', user: 'tmp1', password: 'x' }];
    allOk(await run('set-pools', [st, v2, v3, vn], { pools, workerSuffix: 'none' }));
    allOk(await run('set-fans', [st, vn], { mode: 'manual', percent: 55 }));
    const res = await run('factory-reset', [st, v2, v3, vn, bos]);
    expect(res.slice(0, 4).filter((r) => !r.ok), JSON.stringify(res)).toEqual([]);
    expect(res[4]!.reason).toMatch(/^unsupported-op/);
    await sleep(DARK_MS + 300); // Whatsminer reboots after a reset
    for (const m of [st, v2, v3, vn]) {
      const s = await poll(m);
      expect(s?.missedPolls, `${m.family} ${poller.lastError(m.ip)}`).toBe(0);
      expect(s!.pools.filter((p) => p.url).map((p) => p.url), m.family).toEqual(factory.get(m.ip));
      expect(m.fanCtrl, m.family).toBe(false);
    }
  });

  it('firmware upgrade: stock (upgrade.cgi), Whatsminer v2 (streamed image) and VNish install and report the new build', async () => {
    const st = stockNew();
    const v2 = wmV2();
    const vn = vnish();
    const v3 = wmV3();
    const bos = bosRest();
    files.set('/fw/antminer.bin', Buffer.concat([Buffer.from('Antminer-S-20250312-release\n'), Buffer.alloc(2048, 7)]));
    files.set('/fw/whatsminer.bin', Buffer.concat([Buffer.from('WhatsMiner-H616-20240615-upgrade\n'), Buffer.alloc(300_000, 9)]));
    files.set('/fw/vnish.bin', Buffer.alloc(1024, 1));
    const a = await run('firmware-upgrade', [st], { fileUrl: '/fw/antminer.bin', fileName: 'Antminer-S-20250312.bin', keepSettings: true });
    const b = await run('firmware-upgrade', [v2, v3], { fileUrl: '/fw/whatsminer.bin', keepSettings: true });
    const c = await run('firmware-upgrade', [vn, bos], { fileUrl: '/fw/vnish.bin', fileName: 'vnish-1.2.8-20250401.tar', keepSettings: true });
    allOk([...a, b[0]!, c[0]!]);
    expect(b[1]!.reason).toMatch(/^unsupported-op: API v3/);
    expect(c[1]!.reason).toMatch(/^unsupported-op/);
    expect(st.firmware.date).toBe('20250312');
    expect(v2.firmware.version).toBe('20240615.11.REL');
    await sleep(DARK_MS + 300);
    const ss = await poll(st);
    expect(ss?.compileTime?.slice(0, 10)).toBe('2025-03-12');
    poller.invalidateDetail(v2.ip);
    const sw = await poll(v2);
    expect(sw?.missedPolls, poller.lastError(v2.ip)).toBe(0);
    expect(sw?.firmwareVersion).toContain('20240615');
    const sv = await poll(vn);
    expect(sv?.missedPolls, poller.lastError(vn.ip)).toBe(0);
    expect(sv?.firmwareVersion).toBe(vn.firmware.version);
  });

  it('a Whatsminer image for another make is rejected by the miner and reported as a miner error', async () => {
    const v2 = wmV2();
    const before = v2.firmware.version;
    files.set('/fw/wrong.bin', Buffer.from('Antminer-S19-bmminer-20250101'));
    const [r] = await run('firmware-upgrade', [v2], { fileUrl: '/fw/wrong.bin', keepSettings: true });
    expect(r!.ok).toBe(false);
    expect(r!.reason).toMatch(/^miner-error: .*firmware check failed/);
    expect(v2.firmware.version).toBe(before);
    expect(v2.state).toBe('online');
  });
});
