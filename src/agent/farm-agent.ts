import fs from 'node:fs';
import path from 'node:path';
import { AgentConfig, type AgentConfigInput, type AgentCredentials, type AgentTask, type TaskMinerResult } from '@shared/schemas/agent-uplink';
import { sleep } from './concurrency';
import { DiskBuffer } from './disk-buffer';
import { pacingFor, runTask } from './executor';
import { hostReport } from './host-report';
import { DEFAULT_DETAIL_EVERY_CYCLES, DEFAULT_PORTS, type DriverEnv } from './miner-types';
import type { CycleResult } from './poller';
import { scanRanges, type ScanResult } from './scanner/scanner';
import { ShardedPoller } from './sharded-poller';
import { UplinkClient, UplinkError } from './uplink';

/**
 * The agent loop: fetch config (last good copy kept on disk for outages), scan at start and every
 * `scanEveryCycles`, poll every cycle, spool the batch to disk and drain the spool to the server,
 * heartbeat, pull tasks and run them in the background. Every step survives the server being down.
 */

export const AGENT_VERSION = '0.1.0';

export interface FarmAgentOptions {
  serverUrl: string;
  agentKey: string;
  secret: string;
  dataDir: string;
  /** Fallback configuration file used when the server never answered and no cached config exists. */
  configFile?: string;
  log?: (line: string) => void;
  /** Spool bounds. */
  maxBufferedBatches?: number;
  maxBufferedBytes?: number;
  timeouts?: { connectMs?: number; rpcMs?: number; webMs?: number; uplinkMs?: number };
  /** Re-read MAC/SN/LED/network mode every N cycles at the latest (default 60; reboots, swaps and operations refresh at once). */
  detailEveryCycles?: number;
  /** Poll threads for a large fleet (default: the cores, at most 4; 1 = poll on the main thread). */
  pollThreads?: number;
  /** Poll in threads from this many known miners on (default 2,000). */
  shardFromMiners?: number;
  /** Between cycles, ask the server for tasks this often (default TASK_POLL_MS). */
  taskPollMs?: number;
}

/**
 * How often the agent asks for tasks between its cycles. Tasks were pulled once a cycle (60 s by default), so a reboot
 * started in the console waited up to a minute before the agent began; now it begins within seconds. One small
 * request (GET /tasks) every 5 s.
 */
export const TASK_POLL_MS = 5000;

/**
 * How the server answered the agent's last call: `ok`; `refused` (HTTP 401: wrong --key or --secret, or a secret
 * rotated in the console); `unreachable` (no connection, DNS, time-out); `error` (any other failure of the server).
 */
export type ServerState = 'ok' | 'refused' | 'unreachable' | 'error';

export function serverStateOf(e: unknown): ServerState {
  if (e instanceof UplinkError) {
    if (e.status === 401 || e.status === 403) return 'refused';
    if (e.status === null) return 'unreachable';
  }
  return 'error';
}

/** "3 min 12 s", "45 s", "2 h 5 min": how long the server was away, for the operator's log. */
export function formatOutage(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** The server address for the log: user and password in it (http://user:pass@host) are never printed. */
export function displayServerUrl(serverUrl: string): string {
  try {
    const u = new URL(serverUrl);
    if (u.username || u.password) {
      u.username = '';
      u.password = '';
    }
    return u.toString().replace(/\/$/, '');
  } catch {
    return serverUrl;
  }
}

export interface CycleReport {
  cycle: number;
  configSource: 'server' | 'cache' | 'file' | 'default';
  /** How the server answered this cycle's first call. */
  server: ServerState;
  scan?: Pick<ScanResult, 'miners' | 'unreachable' | 'durationMs'> & { found: number };
  poll: Pick<CycleResult, 'durationMs' | 'ok' | 'failed'> & { miners: number };
  batchSeq: number;
  uploaded: number;
  buffered: number;
}

/**
 * The configured credentials with passwords the agent itself changed (newest first) in front. An empty list means
 * "the firmware defaults": they stay behind the new password, or every other miner of the family would lose its
 * (default) login once one miner's password changed.
 */
export function withChangedPasswords(configured: AgentCredentials, extra: Record<string, string[]>): AgentCredentials {
  const creds = { ...configured };
  for (const [fam, pws] of Object.entries(extra)) {
    const key = fam as keyof AgentCredentials;
    if (!creds[key]) continue;
    const user = fam === 'antminer' || fam === 'braiins' ? 'root' : fam === 'whatsminer' ? 'super' : 'admin';
    const base = creds[key].length ? creds[key] : (FACTORY_CREDENTIALS[key] ?? []);
    creds[key] = [...pws.map((p) => ({ user: base[0]?.user ?? user, password: p })), ...base.filter((b) => !pws.includes(b.password))];
  }
  return creds;
}

/** Factory logins per credential list (what an empty list stands for in the drivers). */
const FACTORY_CREDENTIALS: Partial<Record<string, Array<{ user: string; password: string }>>> = {
  antminer: [{ user: 'root', password: 'root' }],
  braiins: [{ user: 'root', password: 'root' }],
  // v3 account super/super first; '' user = the v2 admin password (v3 would try it as super and move on)
  whatsminer: [{ user: 'super', password: 'super' }, { user: '', password: 'admin' }],
  vnish: [{ user: 'admin', password: 'admin' }],
};

export class FarmAgent {
  readonly uplink: UplinkClient;
  readonly buffer: DiskBuffer;
  readonly poller: ShardedPoller;
  config: AgentConfig;
  private cycle = 0;
  private readonly startedAt = new Date().toISOString();
  private readonly abort = new AbortController();
  private readonly runningTasks = new Map<string, Promise<void>>();
  private readonly doneTasks: Set<string>;
  private readonly pendingReports: Array<{ id: string; results: TaskMinerResult[]; done: boolean }> = [];
  private readonly log: (l: string) => void;
  private extraPasswords: Record<string, string[]> = {};
  /** The server's state as last logged, and since when it has not been `ok` (ms epoch). */
  private serverState: ServerState | null = null;
  private serverDownSince: number | null = null;

  constructor(private readonly o: FarmAgentOptions) {
    fs.mkdirSync(o.dataDir, { recursive: true });
    this.log = o.log ?? ((l) => console.log(`[agent] ${l}`));
    this.uplink = new UplinkClient(o.serverUrl, o.agentKey, o.secret, o.timeouts?.uplinkMs ?? 30000);
    this.buffer = new DiskBuffer({ dir: path.join(o.dataDir, 'spool'), maxBatches: o.maxBufferedBatches, maxBytes: o.maxBufferedBytes });
    this.config = AgentConfig.parse({});
    this.doneTasks = new Set(this.readJson<string[]>('tasks-done.json') ?? []);
    this.poller = new ShardedPoller(this.driverEnv(), { threads: o.pollThreads, shardFromMiners: o.shardFromMiners, log: this.log });
  }

  private readJson<T>(name: string): T | null {
    try {
      return JSON.parse(fs.readFileSync(path.join(this.o.dataDir, name), 'utf8')) as T;
    } catch {
      return null;
    }
  }

  private writeJson(name: string, v: unknown): void {
    const file = path.join(this.o.dataDir, name);
    const tmp = `${file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(v));
    fs.renameSync(tmp, file);
  }

  driverEnv(): DriverEnv {
    const c = this.config;
    return {
      ports: c.ports ?? DEFAULT_PORTS,
      credentials: withChangedPasswords(c.credentials, this.extraPasswords),
      connectTimeoutMs: this.o.timeouts?.connectMs ?? 3000,
      rpcTimeoutMs: this.o.timeouts?.rpcMs ?? 10000,
      webTimeoutMs: this.o.timeouts?.webMs ?? 8000,
      detailEveryCycles: this.o.detailEveryCycles ?? DEFAULT_DETAIL_EVERY_CYCLES,
    };
  }

  /**
   * Logs a change of the server's state once, in words an operator can act on (the cycle line repeats it shortly
   * while it lasts). Never prints the secret: the messages name the call's path only.
   */
  private noteServer(state: ServerState, error?: unknown): void {
    const prev = this.serverState;
    if (state === 'ok') {
      if (prev !== null && prev !== 'ok') {
        const away = this.serverDownSince === null ? '' : ` after ${formatOutage(Date.now() - this.serverDownSince)}`;
        const spooled = this.buffer.count > 0 ? `; sending the ${this.buffer.count} cycle(s) of readings kept on disk` : '';
        this.log(`server ${displayServerUrl(this.o.serverUrl)} accepts the agent again${away}${spooled}`);
      }
      this.serverState = 'ok';
      this.serverDownSince = null;
      return;
    }
    this.serverDownSince ??= Date.now();
    if (prev === state) return;
    this.serverState = state;
    const detail = error instanceof Error ? error.message : String(error ?? '');
    const server = displayServerUrl(this.o.serverUrl);
    if (state === 'refused')
      this.log(
        `the server ${server} refused the agent key "${this.o.agentKey}" or its secret (${detail}). Check --key and --secret against the farm in the console; ` +
          'a secret rotated there stops the old one at once. The agent keeps polling the miners, keeps their readings on disk and retries every cycle.',
      );
    else if (state === 'unreachable')
      this.log(`cannot reach the server ${server} (${detail}). The agent keeps polling the miners with its last configuration, keeps their readings on disk and sends them when the server is back.`);
    else this.log(`the server ${server} answered with an error (${detail}); the agent keeps the readings on disk and retries every cycle.`);
  }

  /** Fetches config; falls back to the cached copy, then the --config file, then defaults. */
  async refreshConfig(): Promise<CycleReport['configSource']> {
    let source: CycleReport['configSource'] = 'default';
    try {
      this.config = await this.uplink.getConfig();
      this.writeJson('config.json', this.config);
      source = 'server';
      this.noteServer('ok');
    } catch (e) {
      const cached = this.readJson<AgentConfigInput>('config.json');
      const parsedCache = cached ? AgentConfig.safeParse(cached) : null;
      if (parsedCache?.success) {
        this.config = parsedCache.data;
        source = 'cache';
      } else if (this.o.configFile) {
        try {
          this.config = AgentConfig.parse(JSON.parse(fs.readFileSync(this.o.configFile, 'utf8')));
          source = 'file';
        } catch (fe) {
          this.log(`config file unusable: ${fe instanceof Error ? fe.message : String(fe)}`);
        }
      }
      const first = this.serverState === null;
      this.noteServer(serverStateOf(e), e);
      if (first && source === 'default') this.log('no configuration yet (never received from the server, no --config file): no IP ranges to scan until the server answers');
    }
    this.poller.setEnv(this.driverEnv());
    return source;
  }

  /** The cycle line's note while the server is not `ok`, e.g. "; server unreachable for 3 min 12 s". */
  serverNote(): string {
    if (this.serverState === null || this.serverState === 'ok') return '';
    const away = this.serverDownSince === null ? 0 : Date.now() - this.serverDownSince;
    const since = away >= 60_000 ? ` for ${formatOutage(away)}` : '';
    const what = this.serverState === 'refused' ? 'server refuses the key or secret' : this.serverState === 'unreachable' ? 'server unreachable' : 'server failing';
    return `; ${what}${since}`;
  }

  /** One full iteration of the loop. */
  async runCycle(): Promise<CycleReport> {
    const configSource = await this.refreshConfig();
    const c = this.config;
    let scan: CycleReport['scan'];
    if (this.cycle % c.scanEveryCycles === 0 || this.poller.size === 0) {
      const r = await scanRanges(c.scanRanges, this.driverEnv(), { concurrency: c.scanConcurrency, signal: this.abort.signal });
      this.poller.upsertMiners(r.miners);
      scan = { miners: r.miners, unreachable: r.unreachable, durationMs: r.durationMs, found: r.miners.length };
      this.log(`scan: ${r.miners.length} miners, ${r.unreachable} unreachable, ${r.durationMs} ms`);
    }
    const poll = await this.poller.pollCycle({ offlineAfterMissed: c.offlineAfterMissed, poolWhitelist: c.poolWhitelist, concurrency: c.pollConcurrency, signal: this.abort.signal, json: true, pack: true });
    const batch = this.buffer.enqueuePacked({ agentVersion: AGENT_VERSION, cycleStartedAt: poll.startedAt, cycleDurationMs: poll.durationMs }, poll.packed);
    const drained = await this.buffer.drain(async (gz) => {
      await this.uplink.postSnapshotsGz(gz);
      return true;
    });
    try {
      await this.uplink.heartbeat({
        agentVersion: AGENT_VERSION,
        startedAt: this.startedAt,
        netDelayMs: this.uplink.netDelayMs,
        bufferedBatches: this.buffer.count,
        miners: this.poller.size,
        host: hostReport(this.o.dataDir),
      });
    } catch {
      // server down: heartbeat resumes with the next cycle
    }
    await this.flushReports();
    await this.pullTasks();
    this.cycle++;
    return {
      cycle: this.cycle,
      configSource,
      server: this.serverState ?? 'ok',
      scan,
      poll: { durationMs: poll.durationMs, ok: poll.ok, failed: poll.failed, miners: poll.packed.count },
      batchSeq: batch.batchSeq,
      uploaded: drained.sent,
      buffered: this.buffer.count,
    };
  }

  private async flushReports(): Promise<void> {
    while (this.pendingReports.length > 0) {
      const r = this.pendingReports[0];
      if (!r) break;
      try {
        await this.uplink.postTaskResults(r.id, { results: r.results, done: r.done });
        this.pendingReports.shift();
      } catch {
        return;
      }
    }
  }

  private async report(id: string, results: TaskMinerResult[], done: boolean): Promise<void> {
    this.pendingReports.push({ id, results, done });
    await this.flushReports();
  }

  /** Pulls tasks and starts each new one in the background. */
  async pullTasks(): Promise<void> {
    let got: Awaited<ReturnType<UplinkClient['getTasks']>>;
    try {
      got = await this.uplink.getTasks();
    } catch {
      return;
    }
    for (const bad of got.invalid) {
      if (this.doneTasks.has(bad.id) || this.runningTasks.has(bad.id)) continue;
      this.markDone(bad.id);
      await this.report(bad.id, [], true);
      this.log(`task ${bad.id} rejected: ${bad.error}`);
    }
    for (const t of got.tasks) {
      if (this.doneTasks.has(t.id) || this.runningTasks.has(t.id)) continue;
      const p = this.execute(t)
        .then(() => undefined)
        .catch((e: unknown) => this.log(`task ${t.id} failed: ${e instanceof Error ? e.message : String(e)}`))
        .finally(() => this.runningTasks.delete(t.id));
      this.runningTasks.set(t.id, p);
    }
  }

  private markDone(id: string): void {
    this.doneTasks.add(id);
    const list = [...this.doneTasks].slice(-5000);
    this.writeJson('tasks-done.json', list);
  }

  /** Runs one task to completion, posting results after each packet. */
  async execute(task: AgentTask): Promise<TaskMinerResult[]> {
    const results = await runTask(
      task,
      {
        env: () => this.driverEnv(),
        handle: (ip) => this.poller.handle(ip),
        snapshot: (ip) => this.poller.lastSnapshot(ip),
        remove: (ip) => {
          this.poller.removeMiner(ip);
        },
        touched: (ip) => this.poller.invalidateDetail(ip),
        fetchFile: (url) => this.uplink.fetchFile(url),
        uploadHistoryLog: (taskId, upload) => this.uplink.postHistoryLog(taskId, upload),
        passwordChanged: (family, pw) => {
          const key = family === 'antminer-stock' ? 'antminer' : family;
          this.extraPasswords[key] = [pw, ...(this.extraPasswords[key] ?? []).filter((x) => x !== pw)];
          this.poller.setEnv(this.driverEnv());
        },
      },
      { pacing: pacingFor(task.op, this.config.batch), signal: this.abort.signal, onResults: (r, done) => this.report(task.id, r, done) },
    );
    this.markDone(task.id);
    this.log(`task ${task.id} ${task.op}: ${results.filter((r) => r.ok).length}/${results.length} ok`);
    return results;
  }

  /** Waits for background tasks (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.runningTasks.values()]);
  }

  /** Main loop until stop(). */
  async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      const started = Date.now();
      try {
        const r = await this.runCycle();
        this.log(`cycle ${r.cycle}: ${r.poll.ok}/${r.poll.miners} polled in ${r.poll.durationMs} ms, batch ${r.batchSeq}, uploaded ${r.uploaded}, buffered ${r.buffered}${this.serverNote()}`);
      } catch (e) {
        this.log(`cycle failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
      }
      const wait = this.config.pollIntervalSec * 1000 - (Date.now() - started);
      if (wait > 0) await this.waitPullingTasks(wait);
    }
    await this.idle();
    await this.poller.close();
  }

  /** The wait between cycles, asking for tasks every taskPollMs meanwhile (pullTasks never throws: a server down waits for the next ask). */
  private async waitPullingTasks(ms: number): Promise<void> {
    const until = Date.now() + ms;
    const every = Math.max(100, this.o.taskPollMs ?? TASK_POLL_MS);
    for (;;) {
      const left = until - Date.now();
      if (left <= 0 || this.abort.signal.aborted) return;
      await sleep(Math.min(left, every), this.abort.signal);
      if (this.abort.signal.aborted || Date.now() >= until) return;
      await this.pullTasks();
    }
  }

  stop(): void {
    this.abort.abort();
  }
}
