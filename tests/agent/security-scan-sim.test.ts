import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTask, type ExecutorDeps } from '@agent/executor';
import { VNISH_SYSTEM_LOGS } from '@agent/families/vnish';
import type { DriverEnv } from '@agent/miner-types';
import { Poller } from '@agent/poller';
import { AntminerWeb } from '@agent/protocols/antminer-web';
import { httpRequest } from '@agent/protocols/http-client';
import { scanRanges } from '@agent/scanner/scanner';
import { probeSsh } from '@agent/security-scan';
import { TaskResultReport, type AgentTask, type TaskMinerResult } from '@shared/schemas/agent-uplink';
import { securityFindings, type SecurityScanReport } from '@shared/security-scan';
import { SSH_INTRUDER, SSH_INTRUSION_FAILS } from '@sim/devices/sim-miner';
import { startFleet, type Fleet, type SimMiner } from '@sim/fleet';
import { setSimFault } from '@sim/sim-client';
import { SIM_SSH_BANNER } from '@sim/ssh-server';
import { simDriverEnv } from '../support/sim-driver-env';

/**
 * Security scan over real sockets (127.73.0.0/24): the simulator's SSH listener, kernel log CGI and VNish log API ←
 * the agent's executor. A hijacked S21 (the `ssh-intrusion` fault, set through the control API) answers SSH with
 * dropbear's banner and its log shows a brute-forced root login; a clean S21 and S19j Pro show nothing; a Whatsminer
 * is refused. A reboot empties the log but the hijacked unit keeps SSH open until the fault is cleared. A hijacked
 * VNish S21 Pro shows the same run in its syslog (/api/v1/logs/messages); a clean one answers SSH, as VNish does by
 * design, and is not flagged.
 */

const CIDR = '127.73.0.0/24';
const DARK_MS = 1500;
let fleet: Fleet;
let env: DriverEnv;
let poller: Poller;
const cycleOpts = { offlineAfterMissed: 3, poolWhitelist: [] as string[][] };

const deps = (): ExecutorDeps => ({
  env: () => poller.getEnv(),
  handle: (ip) => poller.handle(ip),
  snapshot: (ip) => poller.lastSnapshot(ip),
  remove: (ip) => poller.removeMiner(ip),
});

let taskN = 0;
/** Runs a security-scan task over the miners (polled first unless `poll` is false); results in target order. */
async function scan(ms: SimMiner[], poll = true): Promise<TaskMinerResult[]> {
  if (poll) for (const m of ms) await poller.pollOne(m.ip, cycleOpts);
  const task: AgentTask = { id: `sec${++taskN}`, op: 'security-scan', params: {}, targets: ms.map((m) => ({ ip: m.ip })) };
  const results = await runTask(task, deps(), { pacing: { packetSize: 50, pauseMs: 0, concurrency: 10 } });
  // what the agent posts must pass the server's schema unchanged
  expect(TaskResultReport.parse({ results, done: true }).results).toEqual(results);
  return results;
}
async function report(m: SimMiner): Promise<SecurityScanReport> {
  const [r] = await scan([m]);
  expect(r, JSON.stringify(r)).toMatchObject({ ip: m.ip, ok: true });
  return r!.security!;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const used = new Set<string>();
function pick(label: string, pred: (m: SimMiner) => boolean): SimMiner {
  const m = fleet.miners.find((x) => pred(x) && !used.has(x.ip));
  if (!m) throw new Error(`fleet lacks a miner for ${label}`);
  used.add(m.ip);
  return m;
}
const stock = (id: string) => (m: SimMiner) => m.family === 'antminer-stock' && m.model.id === id;

let hijacked: SimMiner;
let cleanS21: SimMiner;
let s19jPro: SimMiner;
let whatsminer: SimMiner;
let braiins: SimMiner;
let vnishHijacked: SimMiner;
let vnishClean: SimMiner;

beforeAll(async () => {
  fleet = await startFleet({
    miners: 60, cidr: CIDR, rpcPort: 0, webPort: 0, whatsminerV3Port: 0, sshPort: 0, seed: 73, tickMs: 250,
    rebootDarkMs: DARK_MS, faultRates: {}, mix: { 'antminer-stock': 5, whatsminer: 2, braiins: 1, vnish: 1 },
  });
  for (const m of fleet.miners) for (const f of m.activeFaults) m.injectFault(f, false);
  hijacked = pick('S21', stock('antminer-s21'));
  cleanS21 = pick('second S21', stock('antminer-s21'));
  s19jPro = pick('S19j Pro', stock('antminer-s19j-pro'));
  whatsminer = pick('Whatsminer', (m) => m.family === 'whatsminer');
  braiins = pick('Braiins OS S19j Pro', (m) => m.family === 'braiins');
  vnishHijacked = pick('VNish S21 Pro', (m) => m.family === 'vnish');
  vnishClean = pick('second VNish S21 Pro', (m) => m.family === 'vnish');
  env = simDriverEnv(fleet);
  expect(env.ports.ssh).toBe(fleet.ports.ssh);
  poller = new Poller(env);
  const found = await scanRanges([{ ipBegin: CIDR }], env, { concurrency: 100 });
  poller.upsertMiners(found.miners);
}, 30_000);

afterAll(async () => {
  await fleet?.close();
});

describe('security scan against the simulator', () => {
  it('finds the brute-forced login and the open SSH port of a hijacked S21; clean units show nothing; Whatsminer and Braiins OS are refused', async () => {
    expect((await setSimFault(fleet.ports.control, hijacked.ip, 'ssh-intrusion')).sshOpen).toBe(true);
    const targets = [hijacked, cleanS21, s19jPro, whatsminer, braiins];
    const [bad, clean, s19, wm, bos] = await scan(targets);

    expect(bad).toMatchObject({ ip: hijacked.ip, ok: true });
    const sec = bad!.security!;
    expect(sec).toMatchObject({ sshOpen: true, banner: SIM_SSH_BANNER, logRead: true });
    expect(sec.events).toEqual([
      expect.objectContaining({ kind: 'failed', source: SSH_INTRUDER, user: 'root', count: SSH_INTRUSION_FAILS, lastLine: expect.stringMatching(/dropbear\[\d+\]: Bad password attempt for 'root' from 203\.0\.113\.45:\d+$/) }),
      expect.objectContaining({ kind: 'login', source: SSH_INTRUDER, user: 'root', count: 1, lastLine: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d dropbear\[\d+\]: Password auth succeeded for 'root'/) }),
    ]);
    expect(securityFindings(sec)).toEqual(['ssh-login', 'ssh-brute-force', 'ssh-open']);

    for (const r of [clean, s19]) {
      expect(r).toMatchObject({ ok: true, security: { sshOpen: false, logRead: true, events: [] } });
      expect(r!.security).not.toHaveProperty('banner');
      expect(securityFindings(r!.security!)).toEqual([]);
    }
    expect(wm).toEqual({ ip: whatsminer.ip, ok: false, reason: 'model-not-supported' });
    // an S19j Pro on Braiins OS: its firmware keeps SSH on by design and documents no log endpoint, so a scan would
    // check nothing there — refused, not counted as checked and clean
    expect(bos).toEqual({ ip: braiins.ip, ok: false, reason: 'firmware-not-supported' });
  });

  it('a reboot empties the log but the hijacked unit keeps SSH open; dark, it answers nothing', async () => {
    await setSimFault(fleet.ports.control, hijacked.ip, 'ssh-intrusion');
    await new AntminerWeb(hijacked.ip, env.ports.web).reboot().catch(() => undefined);
    const deadline = Date.now() + 2000;
    while (hijacked.state === 'online' && Date.now() < deadline) await sleep(20);
    expect(hijacked.state).toBe('rebooting');
    expect(await probeSsh(hijacked.ip, fleet.ports.ssh, 1000)).toMatchObject({ open: false });
    const [dark] = await scan([hijacked], false);
    expect(dark!.ok).toBe(false);
    expect(dark!.reason).toMatch(/^(unreachable|timeout)/);

    await sleep(DARK_MS + 300);
    expect(hijacked.state).toBe('online');
    const sec = await report(hijacked);
    expect(sec).toMatchObject({ sshOpen: true, banner: SIM_SSH_BANNER, logRead: true, events: [] });
    expect(securityFindings(sec)).toEqual(['ssh-open']);
  });

  it('a log the agent may not read still gives the port result', async () => {
    hijacked.setPassword('changed-by-the-intruder');
    try {
      expect(await report(hijacked)).toEqual({ sshOpen: true, banner: SIM_SSH_BANNER, logRead: false, events: [] });
    } finally {
      hijacked.setPassword('root');
    }
  });

  it('clearing the fault closes SSH again', async () => {
    expect((await setSimFault(fleet.ports.control, hijacked.ip, 'ssh-intrusion', false)).sshOpen).toBe(false);
    const sec = await report(hijacked);
    expect(sec).toEqual({ sshOpen: false, logRead: true, events: [] });
    expect(securityFindings(sec)).toEqual([]);
  });

  it('finds the brute-forced login of a hijacked VNish unit in its syslog; a clean one, SSH open by design, shows nothing', async () => {
    expect((await setSimFault(fleet.ports.control, vnishHijacked.ip, 'ssh-intrusion')).sshOpen).toBe(true);
    expect(vnishClean.sshOpen).toBe(true);
    const [bad, clean] = await scan([vnishHijacked, vnishClean]);

    expect(bad).toMatchObject({ ip: vnishHijacked.ip, ok: true });
    const sec = bad!.security!;
    expect(sec).toMatchObject({ sshOpen: true, banner: SIM_SSH_BANNER, sshExpected: true, logRead: true });
    // busybox syslog: "Nov 28 12:00:01 Antminer authpriv.warn dropbear[1234]: …"
    const syslog = (level: string, text: string) => new RegExp(`^[A-Z][a-z]{2} [ \\d]\\d \\d\\d:\\d\\d:\\d\\d Antminer authpriv\\.${level} dropbear\\[\\d+\\]: ${text} for 'root' from 203\\.0\\.113\\.45:\\d+$`);
    expect(sec.events).toEqual([
      expect.objectContaining({ kind: 'failed', source: SSH_INTRUDER, user: 'root', count: SSH_INTRUSION_FAILS, lastLine: expect.stringMatching(syslog('warn', 'Bad password attempt')) }),
      expect.objectContaining({ kind: 'login', source: SSH_INTRUDER, user: 'root', count: 1, lastLine: expect.stringMatching(syslog('notice', 'Password auth succeeded')) }),
    ]);
    // the open port is VNish's design, not a finding; the run of failures and the login are
    expect(securityFindings(sec)).toEqual(['ssh-login', 'ssh-brute-force']);

    expect(clean).toMatchObject({ ip: vnishClean.ip, ok: true, security: { sshOpen: true, banner: SIM_SSH_BANNER, sshExpected: true, logRead: true, events: [] } });
    expect(securityFindings(clean!.security!)).toEqual([]);

    // the evidence is in the messages log, where the agent reads first; the other logs answer short text, no auth
    const get = (path: string) => httpRequest(vnishHijacked.ip, fleet.ports.web, path, { timeoutMs: 4000 });
    const messages = await get(VNISH_SYSTEM_LOGS[0]);
    expect(messages.status).toBe(200);
    expect(messages.body.match(/Bad password attempt for 'root' from 203\.0\.113\.45/g)).toHaveLength(SSH_INTRUSION_FAILS);
    for (const name of ['status', 'miner', 'autotune', 'system', 'api']) {
      const res = await get(`/api/v1/logs/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.body, name).toMatch(/\S/);
      expect(res.body, name).not.toContain('203.0.113.45');
    }
    expect((await get('/api/v1/logs/nope')).status).toBe(404);
  });

  it('a reboot empties the VNish log but not the hijack; SSH stays open there, fault or not', async () => {
    await setSimFault(fleet.ports.control, vnishHijacked.ip, 'ssh-intrusion');
    vnishHijacked.reboot();
    expect(vnishHijacked.state).toBe('rebooting');
    await sleep(DARK_MS + 300);
    expect(vnishHijacked.state).toBe('online');
    expect(vnishHijacked.hasFault('ssh-intrusion')).toBe(true);
    const sec = await report(vnishHijacked);
    expect(sec).toMatchObject({ sshOpen: true, sshExpected: true, logRead: true, events: [] });
    expect(securityFindings(sec)).toEqual([]);

    expect((await setSimFault(fleet.ports.control, vnishHijacked.ip, 'ssh-intrusion', false)).sshOpen).toBe(true);
    expect(await report(vnishHijacked)).toEqual({ sshOpen: true, banner: SIM_SSH_BANNER, sshExpected: true, logRead: true, events: [] });
  });

  it('a miner that answers on neither SSH nor its web port fails with the usual reason', async () => {
    await poller.pollOne(s19jPro.ip, cycleOpts);
    s19jPro.injectFault('offline');
    try {
      const [r] = await scan([s19jPro], false);
      expect(r!.ok).toBe(false);
      expect(r!.reason).toMatch(/^(unreachable|timeout)/);
    } finally {
      s19jPro.injectFault('offline', false);
    }
  });
});
