import { createRequire } from 'node:module';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import type { DriverEnv, IdentifiedMiner, MinerHandle } from './miner-types';
import type { PackedSnapshots } from './packed-snapshots';
import { duplicateSerials, Poller, sortedTexts, type CycleOptions, type CycleResult, type JsonItem, type MinerTransfer } from './poller';
import {
  POLL_WORKER_MARK,
  pollRequestHandler,
  type PollWorkerCall,
  type PollWorkerCycle,
  type PollWorkerFinish,
  type PollWorkerReply,
  type PollWorkerRequest,
} from './poll-worker';

/**
 * The agent's poller. A small fleet is polled on the main thread (Poller). From `shardFromMiners` known miners on
 * (default 2,000) and with two or more cores, the fleet is split over poll threads (`threads` of them: default the
 * cores, at most 4): share 0 stays on the main thread, the others each get a worker thread (worker_threads, one Poller
 * each). A miner belongs to one share by a hash of its IP, the share keeps its sessions, missed polls and last
 * snapshot, and a cycle polls all shares at once with the concurrency divided between them, in two steps: each share
 * polls and sends its serials here, then each marks the fleet's duplicate serials in its JSON snapshots and gzips them
 * (the agent loop, `pack`: the spool gets one gzip per share, written as its miners answered, snapshot-texts.ts; a
 * worker's texts never reach the main thread and the shares compress at once) or sends them to be joined in IP order
 * (`json` alone). The main thread polls a share instead of only waiting for the workers: one V8 heap and runtime fewer (at
 * 20,000 miners on two cores RSS ~295 MiB against ~355 with two workers; tests/bench/agent.bench.ts).
 *
 * Why: at 20,000 miners one thread spends a cycle's whole wall time on CPU (connecting, parsing the replies,
 * normalising, serialising), so the cycle is as long as that thread's work; a farm computer has more cores than one.
 *
 * Operations (executor) run on the main thread with their own handle per miner (identity only: the drivers open
 * their sessions again); afterwards `invalidateDetail` tells the owning thread to re-read the details. A poll thread
 * that dies is started again with its miners' identities (their missed counts and last snapshots are lost).
 */

export interface ShardOptions {
  /** Poll threads once sharded (default: the cores, at most 4; 1 = never shard). */
  threads?: number;
  /** Shard from this many known miners on (default 2,000). */
  shardFromMiners?: number;
  log?: (line: string) => void;
}

const DEFAULT_SHARD_FROM_MINERS = 2000;
export const MAX_POLL_THREADS = 4;

function defaultPollThreads(): number {
  return Math.max(1, Math.min(MAX_POLL_THREADS, os.availableParallelism()));
}

// Only in the packaged agent (one CommonJS file, whose entry runs startPollWorker in a marked worker).
declare const HASHFIELD_PACKAGE: boolean | undefined;

/** What a poll thread runs: the packaged agent's own file, or (from the sources) poll-worker-main.ts bundled here. */
function workerEntry(): { code: string; eval: boolean } {
  if (typeof HASHFIELD_PACKAGE !== 'undefined' && HASHFIELD_PACKAGE) return { code: __filename, eval: false };
  return { code: (sourceWorkerCode ??= bundleWorkerSource()), eval: true };
}

let sourceWorkerCode: string | undefined;

/**
 * From the sources, the poll thread's code is bundled once per process by esbuild (~0.15 s) and run as one CommonJS
 * script, like the packaged agent's file: no TypeScript loader in each thread (tsx there costs ~20 MiB per thread and
 * Node 20 does not pass a worker's `--import` on). esbuild is loaded only here (not part of the packaged agent).
 */
function bundleWorkerSource(): string {
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const entry = fileURLToPath(new URL('./poll-worker-main.ts', import.meta.url));
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const out = esbuild.buildSync({ entryPoints: [entry], bundle: true, platform: 'node', target: 'node20', format: 'cjs', write: false, tsconfig: `${root}tsconfig.json`, logLevel: 'silent' });
  const code = out.outputFiles[0]?.text;
  if (!code) throw new Error('esbuild produced no poll thread code');
  return code;
}

/**
 * Heap of one poll thread: ~10,000 miners' state and a cycle's replies. The young generation is three semi-spaces
 * of 16 MB, as the main thread's; when the process has `--max-semi-space-size` (AGENT_HEAP_FLAGS, where the
 * measurement is), V8 takes the flag over this limit anyway.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 160, maxYoungGenerationSizeMb: 48 };

/** One share of the fleet and its Poller: in a worker thread (WorkerShard) or, share 0, on the main thread (MainShard). */
abstract class Shard {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  dead = false;

  constructor(readonly index: number) {}

  /** Hands a request to the share's Poller. */
  protected abstract send(m: PollWorkerRequest): void;
  /** Whether a request is waiting for its answer (a thread then keeps the process alive). */
  protected abstract waiting(on: boolean): void;
  abstract terminate(): Promise<number>;

  post(m: PollWorkerRequest): void {
    if (!this.dead) this.send(m);
  }

  /** Sends a request that is answered (`PollWorkerCall`, numbered here) and waits for its answer. */
  call<T>(m: PollWorkerCall): Promise<T> {
    if (this.dead) return Promise.reject(new Error(`poll thread ${this.index} is not running`));
    if (this.pending.size === 0) this.waiting(true);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.send({ ...m, id });
    });
  }

  protected settle(m: PollWorkerReply): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (this.pending.size === 0) this.waiting(false);
    if (m.t === 'reply') p.resolve(m.value);
    else p.reject(new Error(m.message));
  }

  protected failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

class WorkerShard extends Shard {
  private readonly worker: Worker;

  constructor(index: number, env: DriverEnv, log: (line: string) => void) {
    super(index);
    const entry = workerEntry();
    this.worker = new Worker(entry.code, { eval: entry.eval, workerData: { [POLL_WORKER_MARK]: true }, resourceLimits: WORKER_LIMITS });
    this.worker.unref();
    this.worker.on('message', (m: PollWorkerReply) => this.settle(m));
    this.worker.on('error', (e) => log(`poll thread ${index} failed: ${e.message}`));
    this.worker.on('exit', (code) => {
      this.dead = true;
      this.failAll(new Error(`poll thread ${index} stopped (exit ${code})`));
    });
    this.post({ t: 'env', env });
  }

  protected send(m: PollWorkerRequest): void {
    this.worker.postMessage(m);
  }

  // A pending answer keeps the process alive (the sockets are in the thread); an idle thread does not.
  protected waiting(on: boolean): void {
    if (on) this.worker.ref();
    else this.worker.unref();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/** Share 0 on the main thread: the same requests, answered in place (no copy of the snapshots); it never dies. */
class MainShard extends Shard {
  private readonly serve = pollRequestHandler((m) => this.settle(m));

  constructor(env: DriverEnv) {
    super(0);
    this.post({ t: 'env', env });
  }

  protected send(m: PollWorkerRequest): void {
    this.serve(m);
  }

  protected waiting(): void {}

  terminate(): Promise<number> {
    this.post({ t: 'abort' });
    this.dead = true;
    return Promise.resolve(0);
  }
}

export class ShardedPoller {
  private readonly local: Poller;
  private shards: Shard[] | null = null;
  /** When sharded: every known miner's main-thread handle (identity; sessions of operations). */
  private readonly handles = new Map<string, MinerHandle>();
  private readonly threads: number;
  private readonly shardFrom: number;
  private readonly log: (line: string) => void;

  constructor(
    private env: DriverEnv,
    o: ShardOptions = {},
  ) {
    this.local = new Poller(env);
    this.threads = Math.max(1, Math.floor(o.threads ?? defaultPollThreads()));
    this.shardFrom = o.shardFromMiners ?? DEFAULT_SHARD_FROM_MINERS;
    this.log = o.log ?? (() => undefined);
  }

  /** Poll threads in use (0: the main thread polls). */
  get threadCount(): number {
    return this.shards?.length ?? 0;
  }

  setEnv(env: DriverEnv): void {
    this.env = env;
    if (this.shards) for (const s of this.shards) s.post({ t: 'env', env });
    else this.local.setEnv(env);
  }

  get size(): number {
    return this.shards ? this.handles.size : this.local.size;
  }

  ips(): string[] {
    return this.shards ? [...this.handles.keys()] : this.local.ips();
  }

  upsertMiners(found: IdentifiedMiner[]): void {
    if (!this.shards) {
      this.local.upsertMiners(found);
      if (this.threads > 1 && this.local.size >= this.shardFrom) this.shard();
      return;
    }
    const per: IdentifiedMiner[][] = this.shards.map(() => []);
    for (const id of found) {
      const h = this.handles.get(id.ip);
      if (!h || h.id.family !== id.family) this.handles.set(id.ip, { id: { ...id }, cycle: 0 });
      else Object.assign(h.id, id);
      per[shardOf(id.ip, this.shards.length)]!.push(id);
    }
    this.shards.forEach((s, i) => {
      if (per[i]!.length) s.post({ t: 'upsert', miners: per[i]! });
    });
  }

  removeMiner(ip: string): boolean {
    if (!this.shards) return this.local.removeMiner(ip);
    this.owner(ip).post({ t: 'remove', ip });
    return this.handles.delete(ip);
  }

  handle(ip: string): MinerHandle | undefined {
    return this.shards ? this.handles.get(ip) : this.local.handle(ip);
  }

  lastSnapshot(ip: string): MinerSnapshot | null | Promise<MinerSnapshot | null> {
    if (!this.shards) return this.local.lastSnapshot(ip);
    if (!this.handles.has(ip)) return null;
    return this.owner(ip).call<MinerSnapshot | null>({ t: 'snapshot', ip }).catch(() => null);
  }

  invalidateDetail(ip: string): void {
    if (!this.shards) return this.local.invalidateDetail(ip);
    this.owner(ip).post({ t: 'invalidate', ip });
  }

  async pollCycle(o: CycleOptions): Promise<CycleResult> {
    if (!this.shards) return this.local.pollCycle(o);
    const started = Date.now();
    const shards = this.shards;
    const call = { offlineAfterMissed: o.offlineAfterMissed, poolWhitelist: o.poolWhitelist, concurrency: Math.max(1, Math.ceil(o.concurrency / shards.length)) };
    const pack = o.json === true && o.pack === true;
    const onAbort = () => {
      for (const s of shards) s.post({ t: 'abort' });
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let parts: PollWorkerCycle[];
    let done: PollWorkerFinish[];
    try {
      // 1. every share polls; its texts stay in its thread, the serials come here
      parts = await Promise.all(
        shards.map(async (_s, i) => {
          try {
            return await this.alive(i).call<PollWorkerCycle>({ t: 'cycle', o: call });
          } catch (e) {
            // the thread died during the cycle: start it again with its miners and poll its share once more
            this.log(e instanceof Error ? e.message : String(e));
            return this.alive(i).call<PollWorkerCycle>({ t: 'cycle', o: call });
          }
        }),
      );
      // 2. the serials shared across the fleet are marked in every share, which then gzips its texts (or sends them)
      const dups = [...duplicateSerials(parts.map((p) => p.sns))];
      done = await Promise.all(
        shards.map(async (_s, i) => {
          try {
            return await this.alive(i).call<PollWorkerFinish>({ t: 'finish', dups, pack });
          } catch (e) {
            // died between the two steps: its share is polled again (its serials were counted in the first poll)
            this.log(e instanceof Error ? e.message : String(e));
            parts[i] = await this.alive(i).call<PollWorkerCycle>({ t: 'cycle', o: call });
            return this.alive(i).call<PollWorkerFinish>({ t: 'finish', dups, pack });
          }
        }),
      );
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
    let ok = 0;
    let failed = 0;
    let detailReads = 0;
    for (const p of parts) {
      ok += p.ok;
      failed += p.failed;
      detailReads += p.detailReads;
    }
    let snapshotsJson: string[] = [];
    const packed: PackedSnapshots = { parts: [], count: 0 };
    if (pack) {
      for (const d of done) {
        if (d.gz) packed.parts.push(Buffer.isBuffer(d.gz) ? d.gz : Buffer.from(d.gz.buffer, d.gz.byteOffset, d.gz.byteLength));
        packed.count += d.count;
      }
    } else {
      const items: JsonItem[] = [];
      for (const d of done) for (const x of d.items ?? []) items.push(x);
      snapshotsJson = sortedTexts(items);
    }
    return {
      snapshots: o.json ? [] : snapshotsJson.map((t) => JSON.parse(t) as MinerSnapshot),
      snapshotsJson: o.json ? snapshotsJson : [],
      items: [],
      packed,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      ok,
      failed,
      detailReads,
      threadHeapBytes: parts.filter((_p, i) => !(shards[i] instanceof MainShard)).map((p) => p.heapBytes),
    };
  }

  /** Stops the poll threads (the agent is stopping). */
  async close(): Promise<void> {
    const shards = this.shards ?? [];
    await Promise.all(shards.map((s) => s.terminate()));
  }

  /** Moves the main thread's miners (with their state) to new poll threads. */
  private shard(): void {
    const n = this.threads;
    const moved = this.local.exportMiners();
    const per: MinerTransfer[][] = Array.from({ length: n }, () => []);
    for (const t of moved) {
      per[shardOf(t.id.ip, n)]!.push(t);
      this.handles.set(t.id.ip, { id: { ...t.id }, cycle: 0 });
      this.local.removeMiner(t.id.ip);
    }
    this.shards = per.map((list, i) => {
      const s = this.newShard(i);
      s.post({ t: 'take', miners: list });
      return s;
    });
    this.log(`${moved.length} miners: polling in ${n} threads`);
  }

  private newShard(i: number): Shard {
    return i === 0 ? new MainShard(this.env) : new WorkerShard(i, this.env, this.log);
  }

  /** The shard `i`, started again with its miners if its thread died. */
  private alive(i: number): Shard {
    const shards = this.shards!;
    const s = shards[i]!;
    if (!s.dead) return s;
    const fresh = this.newShard(i);
    const mine: MinerTransfer[] = [];
    for (const h of this.handles.values()) if (shardOf(h.id.ip, shards.length) === i) mine.push({ id: h.id, cycle: 0, missed: 0, last: null });
    fresh.post({ t: 'take', miners: mine });
    shards[i] = fresh;
    this.log(`poll thread ${i} started again with ${mine.length} miners`);
    return fresh;
  }

  private owner(ip: string): Shard {
    return this.alive(shardOf(ip, this.shards!.length));
  }
}

/** The poll thread of an IP: FNV-1a of its text (neighbouring addresses spread evenly). */
export function shardOf(ip: string, n: number): number {
  let x = 0x811c9dc5;
  for (let i = 0; i < ip.length; i++) {
    x ^= ip.charCodeAt(i);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x % n;
}
