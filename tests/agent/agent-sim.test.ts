import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type Fleet, type SimMiner } from '@sim/fleet';
import type { AgentTask, TaskMinerResult } from '@shared/schemas/agent-uplink';
import { AGENT_ERROR_CODES } from '@shared/schemas/miner-snapshot';
import { runTask, type ExecutorDeps } from '@agent/executor';
import type { DriverEnv } from '@agent/miner-types';
import { simDriverEnv } from '../support/sim-driver-env';
import { Poller } from '@agent/poller';
import { scanRanges } from '@agent/scanner/scanner';

/** Agent ↔ simulator contract tests on 127.31.0.0/24 (real sockets, ephemeral ports). */

const CIDR = '127.31.0.0/24';
const WL = [['stratum+tcp://btc.hashfield-pool.com:3333', 'stratum+tcp://btc-backup.hashfield-pool.com:443', 'stratum+tcp://btc.ss.hashfield-pool.com:25']];
let fleet: Fleet;
let env: DriverEnv;
let poller: Poller;

const cycleOpts = { offlineAfterMissed: 3, poolWhitelist: WL };

function deps(p: Poller): ExecutorDeps {
  return { env: () => p.getEnv(), handle: (ip) => p.handle(ip), snapshot: (ip) => p.lastSnapshot(ip), remove: (ip) => p.removeMiner(ip), touched: (ip) => p.invalidateDetail(ip) };
}

let taskN = 0;
async function run(op: AgentTask['op'], ms: SimMiner[], params: Record<string, unknown> = {}, p = poller): Promise<TaskMinerResult[]> {
  for (const m of ms) await p.pollOne(m.ip, cycleOpts);
  const task = { id: `t${++taskN}`, op, params, targets: ms.map((m) => ({ ip: m.ip })) } as AgentTask;
  return runTask(task, deps(p), { pacing: { packetSize: 50, pauseMs: 0, concurrency: 10 } });
}

const pick = (pred: (m: SimMiner) => boolean, skip: Set<string>): SimMiner => {
  const m = fleet.miners.find((x) => pred(x) && !skip.has(x.ip));
  if (!m) throw new Error('fleet lacks a miner for this test');
  skip.add(m.ip);
  return m;
};
const used = new Set<string>();
const stock = (pred: (m: SimMiner) => boolean = () => true) => pick((m) => m.family === 'antminer-stock' && pred(m), used);

beforeAll(async () => {
  fleet = await startFleet({
    miners: 120,
    cidr: CIDR,
    rpcPort: 0,
    webPort: 0,
    whatsminerV3Port: 0,
    seed: 31,
    rebootDarkMs: 1500,
    mix: { 'antminer-stock': 4, whatsminer: 3, braiins: 2, vnish: 2 },
  });
  env = simDriverEnv(fleet);
  poller = new Poller(env);
});

afterAll(async () => {
  await fleet?.close();
});

describe('identification', () => {
  it('identifies every simulated make, model and firmware in the range', async () => {
    const r = await scanRanges([{ ipBegin: CIDR }], env, { concurrency: 300 });
    expect(r.miners.length).toBe(fleet.miners.length);
    expect(r.unreachable).toBe(254 - fleet.miners.length);
    const seen = new Set<string>();
    for (const id of r.miners) {
      const sm = fleet.miner(id.ip)!;
      expect(id.family, id.ip).toBe(sm.family);
      expect(id.model, id.ip).toBe(sm.model.model);
      expect(id.make).toBe(sm.model.make);
      if (sm.family !== 'braiins') expect(id.compileTime?.slice(0, 10).replace(/-/g, ''), id.ip).toBe(sm.firmware.date);
      if (sm.family === 'whatsminer') expect(id.whatsminerApi).toBe(sm.firmware.date >= '20241101' ? 'v3' : 'v2');
      if (sm.family === 'antminer-stock') expect(id.newApi).toBe(sm.firmware.date >= '20230701');
      seen.add(`${sm.family}:${sm.model.id}`);
    }
    // every catalogue model the fleet holds, under each firmware family
    expect(new Set(fleet.miners.map((m) => `${m.family}:${m.model.id}`))).toEqual(seen);
    expect(new Set(fleet.miners.map((m) => m.family)).size).toBe(4);
    poller.upsertMiners(r.miners);
  });

  it('polls every family with correct units, identity and pools', async () => {
    const c = await poller.pollCycle({ ...cycleOpts, concurrency: 200 });
    expect(c.failed).toBe(0);
    for (const s of c.snapshots) {
      const sm = fleet.miner(s.ip)!;
      const truth = sm.snapshot() as { hashrateGhs: number; sn: string; mac: string; idealGhs: number };
      expect(s.online).toBe(true);
      expect(s.rt5s / truth.hashrateGhs, `${s.ip} ${s.family}`).toBeGreaterThan(0.9);
      expect(s.rt5s / truth.hashrateGhs, `${s.ip} ${s.family}`).toBeLessThan(1.1);
      expect(Math.abs(s.ideal - truth.idealGhs) / truth.idealGhs, `${s.ip} ideal`).toBeLessThan(0.01);
      expect(s.boards.length).toBe(sm.model.hashboards);
      expect(s.boards.every((b) => b.chips === sm.model.chipsPerBoard)).toBe(true);
      expect(s.fans.length).toBe(sm.model.fans);
      expect(s.pools.map((p) => p.url).filter(Boolean)).toEqual(sm.pools.map((p) => p.url).filter(Boolean));
      if (s.family !== 'braiins' || sm.firmware.date >= '20250701') {
        expect(s.mac, s.ip).toBe(sm.mac.toUpperCase());
        // stock builds before 2023-07 have no serial in get_system_info (→ empty-sn)
        if (!(s.family === 'antminer-stock' && sm.firmware.date < '20230701')) expect(s.sn, `${s.ip} ${s.family}`).toBe(sm.sn);
      }
      expect(s.state.qualified, `${s.ip} ${s.family}`).toBe(true);
      expect(s.state.illegalPool).toBe(false);
      expect(s.state.abnormalIdeal).toBe(false);
    }
  });
});

describe('quirks', () => {
  it('every malformed-JSON quirk is parsed without crash or hang', async () => {
    const quirks = ['trailing-comma', 'raw-newline', 'concatenated-objects', 'missing-comma', 'inf-nan', 'leading-comma', 'bracket-comma', 'truncated'] as const;
    for (const fam of ['antminer-stock', 'whatsminer', 'braiins', 'vnish'] as const) {
      const targets = quirks.map((q) => ({ q, m: pick((m) => m.family === fam && m.firmware.date < '20241101', used) }));
      for (const { q, m } of targets) m.setQuirk(q);
      const started = Date.now();
      const snaps = await Promise.all(targets.map(({ m }) => poller.pollOne(m.ip, cycleOpts)));
      expect(Date.now() - started).toBeLessThan(10000);
      snaps.forEach((s, i) => {
        const { q, m } = targets[i]!;
        expect(s, `${fam} ${q}`).not.toBeNull();
        // data is usable except where the quirk itself cut the data off
        if (q !== 'truncated') {
          expect(s!.missedPolls, `${fam} ${q} ${poller.lastError(m.ip) ?? ''}`).toBe(0);
          expect(s!.rt5s, `${fam} ${q}`).toBeGreaterThan(0);
        }
      });
      for (const { m } of targets) m.setQuirk('none');
    }
  }, 30000);

  it('the Whatsminer 2.0.4 error_code list and reset / slow connections', async () => {
    const w = pick((m) => m.family === 'whatsminer' && m.firmware.date >= '20220729' && m.firmware.date < '20241101', used);
    w.injectFault('fan-failure', true);
    w.setQuirk('error-code-brackets');
    const s = await poller.pollOne(w.ip, cycleOpts);
    expect(s?.errorCodes.map((e) => e.code)).toContain(110);
    expect(s?.faultLabels).toContain('fan-speed-abnormal');
    w.setQuirk('reset');
    const r = await poller.pollOne(w.ip, cycleOpts);
    expect(r?.missedPolls).toBe(1);
    expect(r?.online).toBe(true);
    w.setQuirk('slow');
    const sl = await poller.pollOne(w.ip, cycleOpts);
    expect(sl?.missedPolls).toBe(0);
    w.setQuirk('none');
    w.injectFault('fan-failure', false);
  }, 20000);
});

describe('states and faults', () => {
  it('marks a miner offline only after offlineAfterMissed failed polls', async () => {
    const m = stock();
    await poller.pollOne(m.ip, cycleOpts);
    m.injectFault('offline', true);
    const a = await poller.pollOne(m.ip, cycleOpts);
    const b = await poller.pollOne(m.ip, cycleOpts);
    const c = await poller.pollOne(m.ip, cycleOpts);
    expect([a?.online, b?.online, c?.online]).toEqual([true, true, false]);
    expect([a?.missedPolls, b?.missedPolls, c?.missedPolls]).toEqual([1, 2, 3]);
    expect(a?.rt5s).toBeGreaterThan(0); // last good data repeated
    expect(c?.state.online).toBe(false);
    // Offline, the repeated reading says why the poll failed (the simulator drops the connection); not while missing.
    expect(b?.errorCodes.filter((e) => e.code < 0)).toEqual([]);
    expect(c?.errorCodes.filter((e) => e.code < 0)).toEqual([{ code: AGENT_ERROR_CODES.dropped, message: expect.any(String) }]);
    m.injectFault('offline', false);
    const d = await poller.pollOne(m.ip, cycleOpts);
    expect(d?.online).toBe(true);
    expect(d?.missedPolls).toBe(0);
    expect(d?.errorCodes.filter((e) => e.code < 0)).toEqual([]);
  });

  it('a powered-off miner (silent: nothing answers) goes offline with "no answer" once its polls time out, on every make', async () => {
    // Short timeouts: a silent miner costs each poll its whole timeout, as on a farm.
    const quick = new Poller(simDriverEnv(fleet, { rpcTimeoutMs: 400, webTimeoutMs: 400 }));
    const ms = [stock(), pick((m) => m.family === 'whatsminer', used), pick((m) => m.family === 'braiins', used), pick((m) => m.family === 'vnish', used)];
    const found = await scanRanges(ms.map((m) => ({ ipBegin: m.ip })), env, { concurrency: 4 });
    expect(found.miners).toHaveLength(4);
    quick.upsertMiners(found.miners);
    for (const m of ms) expect((await quick.pollOne(m.ip, cycleOpts))?.online, m.family).toBe(true);
    for (const m of ms) {
      m.offlineAnswer = 'silent';
      m.injectFault('offline', true);
    }
    try {
      const t0 = performance.now();
      let last: Awaited<ReturnType<Poller['pollOne']>>[] = [];
      for (let i = 0; i < 3; i++) last = await Promise.all(ms.map((m) => quick.pollOne(m.ip, cycleOpts)));
      // Each poll waited for an answer (a reset fails at once), and within a bounded time (no hang).
      const perPoll = (performance.now() - t0) / 3;
      expect(perPoll).toBeGreaterThanOrEqual(350);
      expect(perPoll).toBeLessThan(4000);
      ms.forEach((m, i) => {
        expect(last[i]?.online, m.family).toBe(false);
        expect(last[i]?.errorCodes.filter((e) => e.code < 0), m.family).toEqual([{ code: AGENT_ERROR_CODES.noAnswer, message: expect.any(String) }]);
      });
    } finally {
      for (const m of ms) {
        m.injectFault('offline', false);
        m.offlineAnswer = undefined;
      }
    }
    const back = await quick.pollOne(ms[0]!.ip, cycleOpts);
    expect(back?.online).toBe(true);
  }, 60_000);

  it('says why a miner never reached is offline: connection refused where nothing listens', async () => {
    const m = stock();
    await poller.pollOne(m.ip, cycleOpts);
    const closed = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const { port } = srv.address() as AddressInfo;
        srv.close(() => resolve(port));
      });
    });
    // The same miner, known from a scan, polled on ports where nothing listens (its API off): no reading ever.
    const p = new Poller({ ...env, ports: { ...env.ports, rpc: closed, web: closed } });
    p.upsertMiners([poller.handle(m.ip)!.id]);
    const polls = [];
    for (let i = 0; i < 3; i++) polls.push(await p.pollOne(m.ip, cycleOpts));
    expect(polls.map((s) => s?.online)).toEqual([true, true, false]);
    expect(polls[2]?.errorCodes).toEqual([{ code: AGENT_ERROR_CODES.refused, message: expect.any(String) }]);
  });

  it('derives fault labels and state flags from what the miners report', async () => {
    const cases: Array<[SimMiner, Parameters<SimMiner['injectFault']>[0], (s: NonNullable<Awaited<ReturnType<Poller['pollOne']>>>) => boolean]> = [
      [stock((m) => m.model.fans > 0), 'fan-failure', (s) => s.faultLabels.includes('fan-speed-abnormal')],
      [stock(), 'missing-chip', (s) => s.faultLabels.includes('missing-chip')],
      [stock(), 'board-down', (s) => s.faultLabels.includes('missing-hashboard')],
      [stock(), 'high-temp', (s) => s.faultLabels.includes('high-temperature')],
      [stock(), 'zero-hashrate', (s) => s.state.zeroHashrate && !s.state.cannotStart],
      [stock(), 'cannot-start', (s) => s.state.cannotStart && s.online],
      [stock(), 'illegal-pool', (s) => s.state.illegalPool],
      [pick((m) => m.family === 'vnish', used), 'board-down', (s) => s.faultLabels.includes('missing-hashboard') && s.faultLabels.includes('hashboard-failure')],
      [pick((m) => m.family === 'braiins', used), 'missing-chip', (s) => s.faultLabels.includes('hashboard-failure')],
      [pick((m) => m.family === 'whatsminer', used), 'high-temp', (s) => s.faultLabels.includes('high-temperature')],
    ];
    for (const [m, f] of cases) {
      await poller.pollOne(m.ip, cycleOpts);
      m.injectFault(f, true);
    }
    await new Promise((r) => setTimeout(r, 100));
    for (const [m, f, check] of cases) {
      const s = await poller.pollOne(m.ip, cycleOpts);
      expect(check(s!), `${m.family} ${f}: ${JSON.stringify({ labels: s?.faultLabels, state: s?.state, err: poller.lastError(m.ip) })}`).toBe(true);
      m.injectFault(f, false);
    }
  });

  it('a stock miner back from a missed poll with its miner process down reads "cannot start" (web probe asked with the RPC)', async () => {
    const m = stock();
    expect((await poller.pollOne(m.ip, cycleOpts))?.missedPolls).toBe(0);
    m.injectFault('offline', true);
    expect((await poller.pollOne(m.ip, cycleOpts))?.missedPolls).toBe(1);
    m.injectFault('offline', false);
    m.injectFault('cannot-start', true);
    try {
      const s = await poller.pollOne(m.ip, cycleOpts);
      expect(s?.missedPolls, poller.lastError(m.ip)).toBe(0);
      expect(s?.state.cannotStart).toBe(true);
      expect(s?.mac).toBe(m.mac.toUpperCase());
    } finally {
      m.injectFault('cannot-start', false);
    }
  });

  it('labels duplicate and empty serials across a cycle', async () => {
    const a = stock((m) => m.firmware.date >= '20230701');
    const b = stock((m) => m.firmware.date >= '20230701');
    const e = pick((m) => m.family === 'whatsminer', used);
    const p = new Poller(env);
    const ids = (await scanRanges([{ ipBegin: a.ip }, { ipBegin: b.ip }, { ipBegin: e.ip }], env)).miners;
    p.upsertMiners(ids);
    const oldA = a.sn;
    const oldE = e.sn;
    b.setSerial(a.sn);
    e.setSerial('');
    const c = await p.pollCycle({ ...cycleOpts, concurrency: 4 });
    const by = new Map(c.snapshots.map((s) => [s.ip, s]));
    expect(by.get(a.ip)?.faultLabels).toContain('duplicate-sn');
    expect(by.get(b.ip)?.faultLabels).toContain('duplicate-sn');
    expect(by.get(e.ip)?.faultLabels).toContain('empty-sn');
    b.setSerial(`${oldA.slice(0, 16)}Z`);
    e.setSerial(oldE);
  });
});

describe('batch operations', () => {
  it('reboot: the miner drops and returns with a fresh uptime', async () => {
    const m = stock();
    const [r] = await run('reboot', [m]);
    expect(r).toEqual({ ip: m.ip, ok: true });
    await new Promise((res) => setTimeout(res, 50));
    const dark = await poller.pollOne(m.ip, cycleOpts);
    expect(dark?.missedPolls).toBe(1);
    await new Promise((res) => setTimeout(res, 1700));
    const back = await poller.pollOne(m.ip, cycleOpts);
    expect(back?.missedPolls, poller.lastError(m.ip)).toBe(0);
    expect(back?.elapsedSec).toBeLessThan(10);
  });

  it('blink toggles the LED on every family', async () => {
    const ms = [
      stock(),
      pick((m) => m.family === 'whatsminer' && m.firmware.date < '20241101' && m.firmware.date >= '20220729', used),
      pick((m) => m.family === 'whatsminer' && m.firmware.date >= '20241101', used),
      pick((m) => m.family === 'vnish', used),
      pick((m) => m.family === 'braiins' && m.firmware.date >= '20250701', used),
    ];
    const on = await run('blink-on', ms);
    expect(on.every((r) => r.ok), JSON.stringify(on)).toBe(true);
    expect(ms.map((m) => m.blink)).toEqual([true, true, true, true, true]);
    const snaps = await Promise.all(ms.map((m) => poller.pollOne(m.ip, cycleOpts)));
    expect(snaps.map((s) => s?.blink)).toEqual([true, true, true, true, true]);
    const off = await run('blink-off', ms);
    expect(off.every((r) => r.ok), JSON.stringify(off)).toBe(true);
    expect(ms.map((m) => m.blink)).toEqual([false, false, false, false, false]);
  });

  it('set pools changes what every family reports (worker suffix by ip)', async () => {
    const ms = [
      stock(),
      pick((m) => m.family === 'whatsminer' && m.firmware.date < '20241101' && m.firmware.date >= '20220729', used),
      pick((m) => m.family === 'whatsminer' && m.firmware.date >= '20241101', used),
      pick((m) => m.family === 'vnish', used),
      pick((m) => m.family === 'braiins' && m.firmware.date >= '20250701', used),
      pick((m) => m.family === 'braiins' && m.firmware.date < '20250701', used),
    ];
    const pools = [
      { url: 'stratum+tcp://new.pool.example:3333', user: 'acct9', password: 'x' },
      { url: 'stratum+tcp://new-b.pool.example:443', user: 'acct9', password: 'x' },
    ];
    const res = await run('set-pools', ms, { pools, workerSuffix: 'ip' });
    expect(res.every((r) => r.ok), JSON.stringify(res)).toBe(true);
    for (const m of ms) {
      const s = await poller.pollOne(m.ip, { ...cycleOpts, poolWhitelist: WL });
      const got = s!.pools.filter((p) => p.url).map((p) => [p.url, p.user]);
      expect(got, m.family).toEqual(pools.map((p) => [p.url, `acct9.${m.ip.replace(/\./g, 'x')}`]));
      expect(s!.state.illegalPool).toBe(true);
    }
  }, 20000);

  it('sleep → 0 hashrate and sleeping; normal → hashing again', async () => {
    const ms = [
      stock((m) => m.firmware.date < '20230701'),
      stock((m) => m.firmware.date >= '20230701'),
      pick((m) => m.family === 'whatsminer' && m.firmware.date < '20241101' && m.firmware.date >= '20220729', used),
      pick((m) => m.family === 'whatsminer' && m.firmware.date >= '20241101', used),
      pick((m) => m.family === 'vnish', used),
      pick((m) => m.family === 'braiins', used),
    ];
    const res = await run('work-mode', ms, { mode: 'sleep' });
    expect(res.every((r) => r.ok), JSON.stringify(res)).toBe(true);
    for (const m of ms) {
      const s = await poller.pollOne(m.ip, cycleOpts);
      expect(s!.rt5s, m.family).toBe(0);
      expect(s!.workMode, `${m.family} ${m.firmware.date}`).toBe('sleep');
      expect(s!.state.sleeping).toBe(true);
      expect(s!.state.zeroHashrate).toBe(false);
    }
    const back = await run('work-mode', ms, { mode: 'normal' });
    expect(back.every((r) => r.ok), JSON.stringify(back)).toBe(true);
    expect(ms.map((m) => m.workMode)).toEqual(ms.map(() => 'normal'));
  });

  it('low power is reported as low-power', async () => {
    const ms = [stock((m) => m.firmware.date >= '20230701'), pick((m) => m.family === 'whatsminer' && m.firmware.date >= '20220729', used), pick((m) => m.family === 'vnish', used)];
    const res = await run('work-mode', ms, { mode: 'low-power' });
    expect(res.every((r) => r.ok), JSON.stringify(res)).toBe(true);
    for (const m of ms) {
      const s = await poller.pollOne(m.ip, cycleOpts);
      expect(s!.workMode, m.family).toBe('low-power');
      expect(s!.state.lowPower).toBe(true);
      m.setWorkMode('normal');
    }
  });

  it('refused capabilities carry their reason; allowed ones run', async () => {
    const s19 = stock((m) => m.model.id === 'antminer-s19j-pro');
    const wm = pick((m) => m.family === 'whatsminer', used);
    const res = await run('adjust-hashrate', [s19, wm], { percent: 80 });
    expect(res).toEqual([
      { ip: s19.ip, ok: false, reason: 'model-not-supported' },
      { ip: wm.ip, ok: false, reason: 'firmware-not-supported' },
    ]);
    const newS21 = stock((m) => (m.model.id === 'antminer-s21' || m.model.id === 'antminer-t21') && m.firmware.date >= '20240520');
    const ok = await run('adjust-hashrate', [newS21], { percent: 80 });
    expect(ok[0], JSON.stringify(ok)).toEqual({ ip: newS21.ip, ok: true });
    expect(newS21.freqLevel).toBe(80);
    newS21.freqLevel = 100;
    const oldS21 = fleet.miners.find((m) => m.model.id === 'antminer-s21' && m.firmware.date < '20240520' && !used.has(m.ip));
    if (oldS21) {
      used.add(oldS21.ip);
      expect((await run('adjust-hashrate', [oldS21], { percent: 80 }))[0]).toEqual({ ip: oldS21.ip, ok: false, reason: 'firmware-too-old' });
    }
    const s21 = stock((m) => m.model.id === 'antminer-s21');
    expect((await run('set-frequency', [s21], { freqMhz: 500 }))[0]).toEqual({ ip: s21.ip, ok: false, reason: 'model-not-supported' });
  });

  it('a non-default password works when configured and fails clearly when not', async () => {
    const m = stock();
    m.setPassword('Xy9pass');
    const p = new Poller(env);
    p.upsertMiners((await scanRanges([{ ipBegin: m.ip }], env)).miners);
    const s = await p.pollOne(m.ip, cycleOpts);
    expect(s?.errorCodes.map((e) => e.code)).toContain(-401);
    const bad = await run('blink-on', [m], {}, p);
    expect(bad[0]).toEqual({ ip: m.ip, ok: false, reason: 'auth-failed' });
    p.setEnv({ ...env, credentials: { ...env.credentials, antminer: [{ user: 'root', password: 'root' }, { user: 'root', password: 'Xy9pass' }] } });
    const p2 = new Poller(p.getEnv());
    p2.upsertMiners((await scanRanges([{ ipBegin: m.ip }], p.getEnv())).miners);
    const s2 = await p2.pollOne(m.ip, cycleOpts);
    expect(s2?.errorCodes.map((e) => e.code)).not.toContain(-401);
    expect(s2?.sn).toBe(m.firmware.date >= '20230701' ? m.sn : '');
    const good = await run('blink-on', [m], {}, p2);
    expect(good[0]).toEqual({ ip: m.ip, ok: true });
    expect(m.blink).toBe(true);
    // Whatsminer: a changed admin password is needed for writes
    const w = pick((x) => x.family === 'whatsminer' && x.firmware.date >= '20220729' && x.firmware.date < '20241101', used);
    w.whatsminer.adminPassword = 'Nw8pass';
    p2.upsertMiners((await scanRanges([{ ipBegin: w.ip }], env)).miners);
    const wbad = await run('reboot', [w], {}, p2);
    expect(wbad[0]?.ok).toBe(false);
    expect(wbad[0]?.reason).toMatch(/^auth-failed/);
    p2.setEnv({ ...p2.getEnv(), credentials: { ...p2.getEnv().credentials, whatsminer: [{ user: 'admin', password: 'admin' }, { user: 'admin', password: 'Nw8pass' }] } });
    const wgood = await run('blink-on', [w], {}, p2);
    expect(wgood[0]).toEqual({ ip: w.ip, ok: true });
  });

  it('staggers packets and reports after each one', async () => {
    const ms = [stock(), stock(), stock(), stock(), stock()];
    for (const m of ms) await poller.pollOne(m.ip, cycleOpts);
    const reports: Array<{ n: number; done: boolean; at: number }> = [];
    const t0 = Date.now();
    const task = { id: 'stagger', op: 'blink-on', params: {}, targets: ms.map((m) => ({ ip: m.ip })) } as AgentTask;
    const res = await runTask(task, deps(poller), { pacing: { packetSize: 2, pauseMs: 200, concurrency: 2 }, onResults: (r, done) => void reports.push({ n: r.length, done, at: Date.now() - t0 }) });
    expect(res.every((r) => r.ok)).toBe(true);
    expect(reports.map((r) => [r.n, r.done])).toEqual([
      [2, false],
      [2, false],
      [1, true],
    ]);
    expect(reports[2]!.at).toBeGreaterThanOrEqual(400);
    const unknown = await runTask({ ...task, id: 'x', targets: [{ ip: '127.31.0.250' }] }, deps(poller), { pacing: { packetSize: 2, pauseMs: 0, concurrency: 2 } });
    expect(unknown).toEqual([{ ip: '127.31.0.250', ok: false, reason: 'unknown-miner' }]);
    for (const m of ms) m.blink = false;
  });
});
