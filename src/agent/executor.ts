import { checkCapability, type CapabilityMiner } from '@shared/miner-capabilities';
import { SSH_BY_DESIGN_FAMILIES, securityScanRefusal } from '@shared/security-scan';
import type { AgentTask, BatchPacing, TaskMinerResult } from '@shared/schemas/agent-uplink';
import type { HistoryLogUpload } from '@shared/schemas/miner-records';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { mapLimit, sleep } from './concurrency';
import { readMinerLog } from './history-log';
import { OpError, type DriverEnv, type FamilyDriver, type MinerHandle } from './miner-types';
import { driverFor } from './poller';
import { HttpError } from './protocols/http-client';
import { RpcError } from './protocols/cgminer-rpc';
import { WhatsminerError } from './protocols/whatsminer';
import { scanMinerSecurity } from './security-scan';

/**
 * Runs a batch task: targets are split into packets of `packetSize`, each packet runs with bounded
 * concurrency, and the executor pauses `pauseMs` between packets (restarting a whole room at once trips
 * breakers). Every target gets a capability check first (spec 3 §5) and a per-miner result with a stable
 * reason code on failure, reported through `onResults` after each packet.
 */

export interface ExecutorDeps {
  env: () => DriverEnv;
  handle: (ip: string) => MinerHandle | undefined;
  /** The miner's last snapshot (from its poll thread when the fleet is polled in threads). */
  snapshot: (ip: string) => MinerSnapshot | null | Promise<MinerSnapshot | null>;
  /** Removes the miner from the agent's list (op 'remove'). */
  remove: (ip: string) => void;
  /** Called after an op touched a miner (refresh details on the next poll). */
  touched?: (ip: string) => void;
  /** Downloads a firmware file (op 'firmware-upgrade'). */
  fetchFile?: (url: string) => Promise<Buffer>;
  /** Called after a successful password change so the new password is tried first from now on. */
  passwordChanged?: (family: string, newPassword: string) => void;
  /** Uploads what a history-log task read (op 'history-log'). */
  uploadHistoryLog?: (taskId: string, upload: HistoryLogUpload) => Promise<unknown>;
}

export interface RunOptions {
  pacing: BatchPacing;
  onResults?: (results: TaskMinerResult[], done: boolean) => Promise<void> | void;
  signal?: AbortSignal;
}

/** Maps any failure to a stable reason string (`code` or `code: detail`). */
export function reasonOf(e: unknown): string {
  if (e instanceof OpError) return e.message && e.message !== e.reason ? `${e.reason}: ${e.message.replace(/^[a-z-]+:\s*/, '')}` : e.reason;
  if (e instanceof HttpError) {
    if (e.kind === 'auth-failed') return 'auth-failed';
    if (e.kind === 'timeout') return 'timeout';
    if (e.kind === 'refused' || e.kind === 'unreachable' || e.kind === 'reset') return `unreachable: ${e.kind}`;
    return `miner-error: ${e.message}`;
  }
  if (e instanceof WhatsminerError) {
    if (e.kind === 'auth-failed') return 'auth-failed';
    if (e.kind === 'write-disabled') return 'write-disabled';
    return `miner-error: ${e.message}`;
  }
  if (e instanceof RpcError) {
    if (e.kind === 'timeout' || e.kind === 'connect-timeout') return 'timeout';
    if (e.kind === 'refused' || e.kind === 'reset' || e.kind === 'unreachable' || e.kind === 'empty') return `unreachable: ${e.kind}`;
    if (e.kind === 'denied') return 'access-denied';
    return `miner-error: ${e.message}`;
  }
  return `error: ${e instanceof Error ? e.message : String(e)}`;
}

function capabilityView(s: MinerSnapshot): CapabilityMiner {
  return { family: s.family, model: s.model, compileTime: s.compileTime, firmwareVersion: s.firmwareVersion, rt5s: s.rt5s, workMode: s.workMode, state: s.state };
}

async function runOp(task: AgentTask, driver: FamilyDriver, h: MinerHandle, env: DriverEnv, snap: MinerSnapshot, deps: ExecutorDeps): Promise<void> {
  switch (task.op) {
    case 'reboot':
      return driver.reboot(h, env);
    case 'blink-on':
      return driver.blink(h, env, true);
    case 'blink-off':
      return driver.blink(h, env, false);
    case 'set-pools':
      return driver.setPools(h, env, task.params.pools, task.params.workerSuffix, snap.sn);
    case 'work-mode':
      return driver.workMode(h, env, task.params.mode);
    case 'factory-reset':
      return driver.factoryReset(h, env);
    case 'change-password':
      await driver.changePassword(h, env, task.params.newPassword);
      deps.passwordChanged?.(h.id.family, task.params.newPassword);
      return;
    case 'firmware-upgrade': {
      if (!deps.fetchFile) throw new OpError('unsupported-op', 'no firmware download configured');
      const file = await deps.fetchFile(task.params.fileUrl);
      const name = task.params.fileName ?? task.params.fileUrl.split('/').pop() ?? 'firmware.bin';
      return driver.firmwareUpgrade(h, env, file, name, task.params.keepSettings);
    }
    case 'dhcp':
      return driver.dhcp(h, env);
    case 'adjust-hashrate':
      return driver.adjustHashrate(h, env, task.params.percent);
    case 'set-frequency':
      return driver.setFrequency(h, env, task.params.freqMhz);
    case 'power-percent':
      return driver.powerPercent(h, env, task.params.percent);
    case 'set-fans':
      if (task.params.mode === 'manual' && task.params.percent === undefined) throw new OpError('invalid-params', 'manual fan mode needs a percent');
      return driver.setFans(h, env, task.params.mode, task.params.percent);
    case 'remove':
      deps.remove(h.id.ip);
      return;
  }
}

/** One target: capability check, then the op. */
export async function runForTarget(task: AgentTask, ip: string, sn: string | undefined, deps: ExecutorDeps): Promise<TaskMinerResult> {
  if (task.op === 'remove') {
    deps.remove(ip);
    return { ip, ok: true };
  }
  const h = deps.handle(ip);
  const snap = await deps.snapshot(ip);
  if (!h || !snap) return { ip, ok: false, reason: 'unknown-miner' };
  if (sn && snap.sn && sn !== snap.sn) return { ip, ok: false, reason: 'sn-mismatch' };
  if (task.op === 'history-log') return historyLog(task.id, ip, h, deps);
  if (task.op === 'security-scan') return securityScan(ip, h, snap, deps);
  const percent = task.op === 'adjust-hashrate' || task.op === 'power-percent' ? task.params.percent : undefined;
  const cap = checkCapability(task.op, capabilityView(snap), percent === undefined ? undefined : { percent });
  if (!cap.ok) return { ip, ok: false, reason: cap.reason };
  const driver = driverFor(h.id.family);
  if (!driver) return { ip, ok: false, reason: 'firmware-not-supported' };
  try {
    await runOp(task, driver, h, deps.env(), snap, deps);
    deps.touched?.(ip);
    return { ip, ok: true };
  } catch (e) {
    return { ip, ok: false, reason: reasonOf(e) };
  }
}

/** Reads the miner's log and uploads it; the upload carries the failure reason too, so the console shows it. */
async function historyLog(taskId: string, ip: string, h: MinerHandle, deps: ExecutorDeps): Promise<TaskMinerResult> {
  if (!deps.uploadHistoryLog) return { ip, ok: false, reason: 'unsupported-op' };
  let result: TaskMinerResult;
  let upload: HistoryLogUpload;
  try {
    const log = await readMinerLog(h, deps.env());
    result = { ip, ok: true };
    upload = { ip, ok: true, content: log.content, source: log.source };
  } catch (e) {
    const reason = reasonOf(e);
    result = { ip, ok: false, reason };
    upload = { ip, ok: false, reason };
  }
  try {
    await deps.uploadHistoryLog(taskId, upload);
  } catch (e) {
    return { ip, ok: false, reason: `upload-failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 300) };
  }
  return result;
}

/** Security scan (security-scan.ts): online S19-generation-or-later Antminers whose log can be read; the result carries the report. */
async function securityScan(ip: string, h: MinerHandle, snap: MinerSnapshot, deps: ExecutorDeps): Promise<TaskMinerResult> {
  if (!snap.state.online) return { ip, ok: false, reason: 'offline' };
  const refused = securityScanRefusal(snap.make, snap.model, h.id.family);
  if (refused) return { ip, ok: false, reason: refused };
  try {
    const report = await scanMinerSecurity(h, deps.env());
    return { ip, ok: true, security: SSH_BY_DESIGN_FAMILIES.includes(h.id.family) ? { ...report, sshExpected: true } : report };
  } catch (e) {
    return { ip, ok: false, reason: reasonOf(e) };
  }
}

/**
 * Tasks that only read the miners (a security scan, a history log) need no staggering: the packets and pauses are
 * there so that restarting a room does not trip its breakers. They run in large packets (results still reported after
 * each, so the console shows progress) with no pause: a 20,000-miner scan in tens of seconds instead of 400 paused
 * packets (20 minutes at the default 50 / 3 s).
 */
export const READ_ONLY_PACING: BatchPacing = { packetSize: 500, pauseMs: 0, concurrency: 100 };
const READ_ONLY_OPS: ReadonlySet<AgentTask['op']> = new Set(['security-scan', 'history-log']);

export function pacingFor(op: AgentTask['op'], batch: BatchPacing): BatchPacing {
  return READ_ONLY_OPS.has(op) ? READ_ONLY_PACING : batch;
}

/** Runs the whole task in staggered packets; resolves with every target's result. */
export async function runTask(task: AgentTask, deps: ExecutorDeps, o: RunOptions): Promise<TaskMinerResult[]> {
  const all: TaskMinerResult[] = [];
  const size = Math.max(1, o.pacing.packetSize);
  const targets = task.targets;
  for (let i = 0; i < targets.length; i += size) {
    if (o.signal?.aborted) break;
    const packet = targets.slice(i, i + size);
    const results = await mapLimit(packet, Math.max(1, o.pacing.concurrency), async (t) => {
      try {
        return await runForTarget(task, t.ip, t.sn, deps);
      } catch (e) {
        return { ip: t.ip, ok: false, reason: reasonOf(e) };
      }
    });
    all.push(...results);
    const last = i + size >= targets.length;
    await o.onResults?.(results, last);
    if (!last && o.pacing.pauseMs > 0) await sleep(o.pacing.pauseMs, o.signal);
  }
  if (targets.length === 0) await o.onResults?.([], true);
  else if (o.signal?.aborted && all.length < targets.length) {
    const rest = targets.slice(all.length).map((t) => ({ ip: t.ip, ok: false, reason: 'aborted' }));
    all.push(...rest);
    await o.onResults?.(rest, true);
  }
  return all;
}
