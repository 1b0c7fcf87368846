/**
 * Shared pieces of the benchmarks: the real server as a child process (own process group, so nothing it
 * starts survives), a cleanup registry that run.ts drains at the end — also on error and on Ctrl-C —
 * a throw-away PostgreSQL, a keep-alive HTTP client with its own session, and the statistics.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pg from 'pg';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import { gzipBatch } from '../support/miner-snapshots';
import { startPostgres } from '../support/pg-server.mjs';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

// ------------------------------------------------------------------ cleanup registry

type Cleanup = { sync: () => void; async?: () => Promise<void> };
const cleanups = new Set<Cleanup>();

/** Registers something to undo; returns the function that undoes it now (and unregisters it). */
function track(c: Cleanup): () => Promise<void> {
  cleanups.add(c);
  return async () => {
    if (!cleanups.delete(c)) return;
    if (c.async) await c.async();
    else c.sync();
  };
}

/** Undoes everything still registered (newest first): graceful where possible. */
export async function cleanupAll(): Promise<void> {
  for (const c of [...cleanups].reverse()) {
    cleanups.delete(c);
    try {
      if (c.async) await c.async();
      else c.sync();
    } catch (e) {
      console.error('cleanup failed:', e);
    }
  }
}

/** Last resort on process exit: synchronous only (kill process groups, stop PostgreSQL, delete dirs). */
export function cleanupAllSync(): void {
  for (const c of [...cleanups].reverse()) {
    cleanups.delete(c);
    try {
      c.sync();
    } catch {
      /* exiting anyway */
    }
  }
}

export function tempDir(prefix: string): { dir: string; remove: () => Promise<void> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const sync = () => rmSync(dir, { recursive: true, force: true });
  return { dir, remove: track({ sync }) };
}

// ------------------------------------------------------------------ processes

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((ok) => {
    const timer = setTimeout(() => ok(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      ok(true);
    });
  });
}

export interface BenchServer {
  url: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 of GET /api/config/public. */
  readyMs: number;
  /** The server's own figure (database open + migrations + app build + listen), from its start log line. */
  serverStartMs: number | null;
  /** Resident set size now and at its peak (VmRSS / VmHWM of the server process), MiB. */
  memory(): { rssMiB: number; peakMiB: number };
  /** CPU time (user + system) the server process has used so far, ms. */
  cpuMs(): number;
  /** SIGTERM (graceful: PGlite is closed and flushed), SIGKILL after 10 s. */
  stop(): Promise<void>;
  log(): string;
}

export interface ServerOptions {
  dataDir: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Starts src/server/main.ts as `node --import tsx` (what `npx tsx` runs, without npm's launcher in the
 * figure), API only (SERVE_DIST=false), in its own process group.
 */
export async function startServer(opts: ServerOptions): Promise<BenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const t0 = performance.now();
  // HF_BENCH_SERVER_NODE_ARGS: extra Node flags for the server (profiling: "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = (process.env.HF_BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: opts.dataDir, SERVE_DIST: 'false', LOG_LEVEL: 'info', ...opts.env },
  });
  const append = (d: Buffer) => {
    output += d.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const stop = track({
    sync: () => killGroup(child, 'SIGKILL'),
    async: async () => {
      killGroup(child, 'SIGTERM');
      if (!(await exited(child, 10_000))) {
        killGroup(child, 'SIGKILL');
        await exited(child, 5_000);
      }
      // Anything the server itself started.
      killGroup(child, 'SIGKILL');
    },
  });

  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let readyMs = -1;
  while (readyMs < 0) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited with ${child.exitCode}\n${output}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not answer within ${opts.timeoutMs ?? 60_000} ms\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/config/public`);
      await res.arrayBuffer();
      if (res.ok) readyMs = performance.now() - t0;
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  // The start line is written right after listen; the first answer can overtake it on the pipe.
  for (let i = 0; i < 100 && !/"startMs":\d+/.test(output); i++) await new Promise((r) => setTimeout(r, 20));
  const m = /"startMs":(\d+)/.exec(output);
  const pid = child.pid!;
  return {
    url,
    pid,
    readyMs,
    serverStartMs: m ? Number(m[1]) : null,
    memory: () => {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
    },
    cpuMs: () => processCpuMs(pid),
    stop,
    log: () => output,
  };
}

export interface BenchChild {
  pid: number;
  /** Everything the child wrote to stdout and stderr so far (the last ~100 kB). */
  output(): string;
  /** Resolves with the child's exit code (null when killed by a signal). */
  exit: Promise<number | null>;
  /** SIGTERM to its process group, SIGKILL after 5 s. */
  stop(): Promise<void>;
  /** Writes to the child's stdin (a child spawned with `stdin: true`; else nothing). */
  write(text: string): void;
}

/**
 * Starts `node <nodeArgs…>` in its own process group (so nothing it starts survives), registered with the
 * cleanup registry: killed at the end, also on error and Ctrl-C.
 */
export function spawnChild(nodeArgs: string[], env: Record<string, string> = {}, opts: { stdin?: boolean } = {}): BenchChild {
  let out = '';
  const child = spawn(process.execPath, nodeArgs, { cwd: REPO_ROOT, detached: true, stdio: [opts.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  const append = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exit = new Promise<number | null>((ok) => {
    child.once('exit', (code) => ok(code));
    child.once('error', () => ok(null));
  });
  const stop = track({
    sync: () => killGroup(child, 'SIGKILL'),
    async: async () => {
      killGroup(child, 'SIGTERM');
      if (!(await exited(child, 5_000))) {
        killGroup(child, 'SIGKILL');
        await exited(child, 5_000);
      }
      killGroup(child, 'SIGKILL');
    },
  });
  child.stdin?.on('error', () => undefined); // the child gone: its exit code tells
  return { pid: child.pid ?? -1, output: () => out, exit, stop, write: (text) => void child.stdin?.write(text) };
}

let clockTicks = 0;

/** CPU time (user + system) of a process from /proc/<pid>/stat, ms; 0 when it is gone. */
export function processCpuMs(pid: number): number {
  clockTicks ||= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return 0;
  }
}

/** Runs `work` on a connection of its own to the PostgreSQL at `url` (seeding, reading figures), closed after. */
export async function withPostgres<T>(url: string, work: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

/**
 * CPU used by the PostgreSQL backends serving other connections (the server's pool), summed per pid;
 * call before and after, and subtract with `cpuSince`.
 */
export function postgresBackendsCpu(url: string): Promise<Map<number, number>> {
  return withPostgres(url, async (c) => {
    const r = await c.query<{ pid: number }>(`select pid from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`);
    return new Map(r.rows.map((row) => [row.pid, processCpuMs(row.pid)]));
  });
}

export function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, cpu] of after) sum += cpu - (before.get(pid) ?? 0);
  return sum;
}

/** Context for reading the figures: load average and a fixed CPU loop (compare runs and machines). */
export function machineContext(): string {
  const t0 = process.cpuUsage();
  let x = 0;
  for (let i = 0; i < 100_000_000; i++) x = (x + i) % 1_000_003;
  const u = process.cpuUsage(t0);
  const load = loadavg().map((v) => v.toFixed(1)).join(' ');
  return `load average ${load}; CPU calibration loop ${Math.round((u.user + u.system) / 1000)} ms (checksum ${x})`;
}

/** A throw-away PostgreSQL (tests/support/pg-server.mjs), stopped by the cleanup registry if not before. */
export async function startBenchPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const pg = await startPostgres();
  return { url: pg.url, stop: track({ sync: () => pg.stop() }) };
}

// ------------------------------------------------------------------ HTTP

export interface HttpResult {
  status: number;
  body: string;
  ms: number;
  headers: http.IncomingHttpHeaders;
  /** Bytes of the body as sent (compressed when the answer says Content-Encoding). */
  sentBytes: number;
}

/**
 * One browser-like client: its own keep-alive connection (one socket) and its own session cookie;
 * writes carry X-Requested-With.
 */
export class BenchClient {
  cookie: string | null = null;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  /** `defaultHeaders` go with every request (e.g. the Accept-Encoding a browser sends). */
  constructor(
    readonly baseUrl: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  request(method: 'GET' | 'POST', path: string, payload?: Buffer | string | object, extraHeaders: Record<string, string> = {}): Promise<HttpResult> {
    const data = payload === undefined ? undefined : Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload));
    const headers: Record<string, string> = { accept: 'application/json', I18N: 'en-US', ...this.defaultHeaders, ...extraHeaders };
    if (this.cookie) headers.cookie = this.cookie;
    if (data) {
      headers['content-length'] = String(data.length);
      headers['content-type'] ??= 'application/json';
    }
    if (method !== 'GET') headers['x-requested-with'] = 'XMLHttpRequest';
    return new Promise((ok, fail) => {
      const t0 = performance.now();
      const req = http.request(`${this.baseUrl}${path}`, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const set = res.headers['set-cookie']?.find((c) => c.startsWith('hf_session='));
          if (set) this.cookie = set.split(';')[0]!;
          const raw = Buffer.concat(chunks);
          // A compressed answer is decoded as the browser would (its time is inside `ms`: the browser pays it too).
          const enc = res.headers['content-encoding'];
          const bytes = enc === 'br' ? brotliDecompressSync(raw) : enc === 'gzip' ? gunzipSync(raw) : raw;
          const ms = performance.now() - t0;
          ok({ status: res.statusCode ?? 0, body: bytes.toString('utf8'), ms, headers: res.headers, sentBytes: raw.length });
        });
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end(data);
    });
  }

  /** POST that must answer envelope code 0; returns its data. */
  async must<T>(method: 'GET' | 'POST', path: string, payload?: Buffer | string | object, headers?: Record<string, string>): Promise<T> {
    const res = await this.request(method, path, payload, headers);
    const env = (() => {
      try {
        return JSON.parse(res.body) as { code: unknown; data: T };
      } catch {
        return null;
      }
    })();
    if (res.status !== 200 || !env || env.code !== 0) throw new Error(`${method} ${path} → ${res.status} ${res.body.slice(0, 500)}`);
    return env.data;
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Posts one agent upload as the agent does (gzip JSON, Bearer `<agentKey>.<secret>`); throws unless it is accepted. */
export async function postAgentBatch(serverUrl: string, agentKey: string, secret: string, batch: SnapshotBatch): Promise<void> {
  const agent = new BenchClient(serverUrl);
  try {
    const headers = { authorization: `Bearer ${agentKey}.${secret}`, 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const res = await agent.request('POST', '/api/agent-uplink/snapshots', gzipBatch(batch), headers);
    if (res.status !== 200) throw new Error(`upload failed: ${res.body.slice(0, 300)}`);
  } finally {
    agent.close();
  }
}

// ------------------------------------------------------------------ statistics and printing

export function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export const ms = (v: number | null) => (v === null || Number.isNaN(v) ? '–' : v >= 100 ? `${Math.round(v)} ms` : `${v.toFixed(1)} ms`);
export const mib = (v: number) => `${v.toFixed(0)} MiB`;

/** Title line, then console.table. */
export function printTable(title: string, rows: Record<string, unknown>[] | Record<string, Record<string, unknown>>): void {
  console.log(`\n${title}`);
  console.table(rows);
}
