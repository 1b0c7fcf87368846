import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet, type SimMiner } from '@sim/fleet';
import { luxosSessionOf } from '@sim/devices/luxos';
import type { AgentTask, TaskMinerResult } from '@shared/schemas/agent-uplink';
import { runTask, type ExecutorDeps } from '@agent/executor';
import type { DriverEnv } from '@agent/miner-types';
import { simDriverEnv } from '../support/sim-driver-env';
import { Poller } from '@agent/poller';
import { rpcCommand } from '@agent/protocols/cgminer-rpc';
import { scanRanges } from '@agent/scanner/scanner';

/**
 * LuxOS over real sockets (127.52.0.0/24): the simulator speaks LUXminer's CGMiner API with sessions (§5),
 * the agent identifies, polls and runs every operation LuxOS supports; effects show on the next poll.
 */

const CIDR = '127.52.0.0/24';
const DARK_MS = 1200;
let fleet: Fleet;
let env: DriverEnv;
let poller: Poller;
const cycleOpts = { offlineAfterMissed: 3, poolWhitelist: [] as string[][] };

function deps(): ExecutorDeps {
  return { env: () => poller.getEnv(), handle: (ip) => poller.handle(ip), snapshot: (ip) => poller.lastSnapshot(ip), remove: (ip) => poller.removeMiner(ip), touched: (ip) => poller.invalidateDetail(ip) };
}
let n = 0;
async function run(op: AgentTask['op'], ms: SimMiner[], params: Record<string, unknown> = {}): Promise<TaskMinerResult[]> {
  for (const m of ms) await poller.pollOne(m.ip, cycleOpts);
  const task = { id: `lx${++n}`, op, params, targets: ms.map((m) => ({ ip: m.ip })) } as AgentTask;
  return runTask(task, deps(), { pacing: { packetSize: 10, pauseMs: 0, concurrency: 5 } });
}
const poll = (m: SimMiner) => poller.pollOne(m.ip, cycleOpts);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lux = () => fleet.miners.filter((m) => m.family === 'luxos');
const allOk = (rs: TaskMinerResult[]) => expect(rs.filter((r) => !r.ok), JSON.stringify(rs)).toEqual([]);

beforeAll(async () => {
  fleet = await startFleet({ miners: 24, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, seed: 52, rebootDarkMs: DARK_MS, faultRates: {}, mix: { luxos: 3, 'antminer-stock': 1 } });
  for (const m of fleet.miners) for (const f of m.activeFaults) m.injectFault(f, false);
  env = simDriverEnv(fleet);
  poller = new Poller(env);
}, 30000);

afterAll(async () => {
  await fleet?.close();
});

describe('LuxOS', () => {
  it('identifies LuxOS units (LUXminer version, model from Type) next to stock ones', async () => {
    const r = await scanRanges([{ ipBegin: CIDR }], env, { concurrency: 100 });
    poller.upsertMiners(r.miners);
    expect(r.miners.length).toBe(fleet.miners.length);
    expect(lux().length).toBeGreaterThan(8);
    for (const id of r.miners) {
      const sm = fleet.miner(id.ip)!;
      expect(id.family, id.ip).toBe(sm.family);
      expect(id.model, id.ip).toBe(sm.model.model);
      if (sm.family === 'luxos') expect(id.firmwareVersion).toBe(sm.firmware.version);
    }
  });

  it('polls hashrate (GH/s), boards, fans, pools, LED, MAC and serial', async () => {
    for (const m of lux().slice(0, 4)) {
      const s = (await poll(m))!;
      expect(s.family).toBe('luxos');
      expect(s.missedPolls, poller.lastError(m.ip)).toBe(0);
      expect(s.rt5s / m.model.idealGhs).toBeGreaterThan(0.9);
      expect(s.rt5s / m.model.idealGhs).toBeLessThan(1.1);
      expect(s.boards.length).toBe(m.model.hashboards);
      expect(s.boards.every((b) => b.chips === m.model.chipsPerBoard)).toBe(true);
      expect(s.fans.length).toBe(m.model.fans);
      expect(s.fans.every((f) => f > 1000)).toBe(true);
      expect(s.pools.map((p) => p.url)).toEqual(m.pools.filter((p) => p.url).map((p) => p.url));
      expect(s.mac).toBe(m.mac);
      expect(s.sn).toBe(m.sn);
      expect(s.blink).toBe(false);
      expect(s.workMode).toBe('normal');
    }
  });

  it('sessions: one at a time (402), reused when active, logged off after each write', async () => {
    const m = lux()[0]!;
    const o = { connectTimeoutMs: 1000, timeoutMs: 4000 };
    const a = await rpcCommand(m.ip, env.ports.rpc, 'logon', o);
    const sid = (a['SESSION'] as Array<{ SessionID: string }>)[0]!.SessionID;
    expect(sid).toMatch(/^\S{8}$/);
    const b = await rpcCommand(m.ip, env.ports.rpc, 'logon', { ...o, allowError: true });
    expect((b['STATUS'] as Array<{ Code: number; Msg: string }>)[0]).toMatchObject({ Code: 402, Msg: 'Another session is active' });
    const denied = await rpcCommand(m.ip, env.ports.rpc, 'curtail', { ...o, parameter: 'wrongsid,sleep', allowError: true });
    expect((denied['STATUS'] as Array<{ STATUS: string }>)[0]!.STATUS).toBe('E');
    expect(m.workMode).toBe('normal');
    // the agent reuses the session someone left open (pyasic's way) and leaves it open
    allOk(await run('blink-on', [m]));
    expect(m.blink).toBe(true);
    expect(luxosSessionOf(m)).toBe(sid);
    await rpcCommand(m.ip, env.ports.rpc, 'logoff', { ...o, parameter: sid });
    // with no session the agent logs on and off around the command
    allOk(await run('blink-off', [m]));
    expect(m.blink).toBe(false);
    expect(luxosSessionOf(m)).toBeNull();
    expect((await poll(m))!.blink).toBe(false);
  });

  it('blink, sleep / wake, low power and high profiles show on the next poll', async () => {
    const [a, b] = lux().slice(1, 3) as [SimMiner, SimMiner];
    allOk(await run('blink-on', [a, b]));
    expect((await poll(a))!.blink).toBe(true);
    allOk(await run('work-mode', [a, b], { mode: 'sleep' }));
    for (const m of [a, b]) {
      const s = (await poll(m))!;
      expect(s.workMode).toBe('sleep');
      expect(s.rt5s).toBe(0);
      expect(s.state.sleeping).toBe(true);
    }
    allOk(await run('work-mode', [a], { mode: 'low-power' }));
    allOk(await run('work-mode', [b], { mode: 'high' }));
    await sleep(DARK_MS + 300);
    const sa = (await poll(a))!;
    const sb = (await poll(b))!;
    expect(sa.workMode).toBe('low-power');
    expect(sa.state.lowPower).toBe(true);
    expect(sa.rt5s / sa.ideal).toBeLessThan(0.8);
    expect(sb.workMode).toBe('high');
    expect(sb.rt5s / sb.ideal).toBeGreaterThan(1.02);
    allOk(await run('work-mode', [a, b], { mode: 'normal' }));
    expect((await poll(a))!.workMode).toBe('normal');
  });

  it('pools (no session), fans, factory reset and reboot', async () => {
    const [m, r] = lux().slice(3, 5) as [SimMiner, SimMiner];
    const factory = m.pools.filter((p) => p.url).map((p) => p.url);
    const pools = [
      { url: 'stratum+tcp://lux.pool.example:3333', user: 'acct5', password: 'x' },
      { url: 'stratum+tcp://lux-b.pool.example:443', user: 'acct5', password: 'x' },
    ];
    allOk(await run('set-pools', [m], { pools, workerSuffix: 'ip' }));
    const s1 = (await poll(m))!;
    expect(s1.pools.map((p) => [p.url, p.user])).toEqual(pools.map((p) => [p.url, `acct5.${m.ip.replace(/\./g, 'x')}`]));

    allOk(await run('set-fans', [m], { mode: 'manual', percent: 35 }));
    for (const rpm of (await poll(m))!.fans) expect(Math.abs(rpm - 6500 * 0.35)).toBeLessThan(200);
    allOk(await run('set-fans', [m], { mode: 'auto' }));
    expect(m.fanCtrl).toBe(false);

    allOk(await run('set-fans', [m], { mode: 'manual', percent: 50 }));
    allOk(await run('factory-reset', [m]));
    const s2 = (await poll(m))!;
    expect(s2.pools.map((p) => p.url)).toEqual(factory);
    expect(m.fanCtrl).toBe(false);

    allOk(await run('reboot', [r]));
    await sleep(50);
    expect((await poll(r))!.missedPolls).toBe(1);
    await sleep(DARK_MS + 300);
    const back = (await poll(r))!;
    expect(back.missedPolls, poller.lastError(r.ip)).toBe(0);
    expect(back.elapsedSec).toBeLessThan(10);
  });

  it('operations LuxOS does not expose are refused with their reason', async () => {
    const m = lux()[5]!;
    const pw = await run('change-password', [m], { newPassword: 'Lux_1' });
    expect(pw[0]!.reason).toMatch(/^unsupported-op: the LuxOS API has no password command/);
    const dhcp = await run('dhcp', [m]);
    expect(dhcp[0]!.reason).toMatch(/^unsupported-op/);
    const hr = await run('adjust-hashrate', [m], { percent: 80 });
    expect(hr[0]).toEqual({ ip: m.ip, ok: false, reason: 'firmware-not-supported' });
  });
});
