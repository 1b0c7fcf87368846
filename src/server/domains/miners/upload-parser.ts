/**
 * Agent uploads read off the main thread: one worker thread (upload-worker.ts), started on the first upload and
 * again after a crash, parses, checks and prepares each upload, and hands its chunks over as they are made while the
 * database already works on the first ones. Where no worker can start (a runtime without the TypeScript loader), the
 * same work is done in line.
 *
 * Why (tests/bench/snapshot-ingest.bench.ts, 20,000 miners, 30 MB of JSON): in line, the parse, check and parameter
 * building took ~1 s of the main thread per upload, during which no other request was answered; see ingest-snapshots.ts
 * for the figures with the worker.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors';
import { CHUNK, type PreparedChunk, type UploadHead, preparedInLine, readUpload } from './upload-prepare';

export interface WorkerRequest {
  id: number;
  body: Uint8Array;
  chunkSize: number;
  /** The farm's miners marked off shelf, left out of its minute (upload-prepare.ts minuteTotals). */
  offShelf: string[];
}

export type WorkerReply =
  | { id: number; type: 'head'; head: UploadHead }
  | { id: number; type: 'chunk'; chunk: PreparedChunk }
  | { id: number; type: 'end' }
  | { id: number; type: 'invalid'; json?: true; fields?: Record<string, string> }
  | { id: number; type: 'error'; message: string };

export interface ParsedUpload {
  head: UploadHead;
  chunks: AsyncIterable<PreparedChunk>;
}

/** One upload in the worker: its head (or refusal) once, then its chunks in order. */
class Pending {
  private readonly queue: PreparedChunk[] = [];
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  readonly head: Promise<UploadHead>;
  private settleHead!: { resolve: (h: UploadHead) => void; reject: (e: Error) => void };

  constructor(private readonly forget: () => void) {
    this.head = new Promise<UploadHead>((resolve, reject) => (this.settleHead = { resolve, reject }));
  }

  receive(reply: WorkerReply): void {
    if (reply.type === 'head') this.settleHead.resolve(reply.head);
    else if (reply.type === 'invalid') {
      this.settleHead.reject(reply.json ? new AppError('badRequest') : new AppError('validation', {}, { fields: reply.fields ?? {} }));
      this.finish();
    } else if (reply.type === 'chunk') this.queue.push(reply.chunk);
    else if (reply.type === 'end') this.finish();
    else this.fail(new Error(`upload worker: ${reply.message}`));
    this.wake?.();
  }

  fail(err: Error): void {
    this.failure = err;
    this.settleHead.reject(err);
    this.finish();
    this.wake?.();
  }

  private finish(): void {
    this.ended = true;
    this.forget();
  }

  async *chunks(): AsyncGenerator<PreparedChunk> {
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next) yield next;
        else if (this.failure) throw this.failure;
        else if (this.ended) return;
        else await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      this.queue.length = 0; // asked no further (a failure, a duplicate): what still comes is dropped
    }
  }
}

/** tsx's ESM API (its `import` export), as a URL. */
function tsxApi(): string {
  const meta = import.meta as ImportMeta & { resolve?: (s: string) => string };
  if (typeof meta.resolve === 'function') return meta.resolve('tsx/esm/api');
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
}

let worker: Worker | null = null;
let workerBroken = false;
let nextId = 1;
const pending = new Map<number, Pending>();

function startWorker(): Worker | null {
  if (worker) return worker;
  if (workerBroken) return null;
  try {
    // The worker is TypeScript like the rest of the server: it loads itself through tsx's API (a worker thread does not
    // get the loader the main thread was started with, on Node 20).
    const url = new URL('./upload-worker.ts', import.meta.url).href;
    const boot = `import(${JSON.stringify(tsxApi())}).then(({ tsImport }) => tsImport(${JSON.stringify(url)}, ${JSON.stringify(url)}))`;
    const w = new Worker(boot, { eval: true });
    w.unref();
    w.on('message', (reply: WorkerReply) => pending.get(reply.id)?.receive(reply));
    w.on('error', (err) => {
      for (const p of [...pending.values()]) p.fail(err);
      if (worker === w) worker = null;
    });
    w.on('exit', (code) => {
      for (const p of [...pending.values()]) p.fail(new Error(`upload worker exited (${code})`));
      if (worker === w) worker = null;
    });
    worker = w;
    return w;
  } catch {
    workerBroken = true;
    return null;
  }
}

function inLine(body: Buffer, chunkSize: number, offShelf: readonly string[]): ParsedUpload {
  const r = readUpload(body.toString('utf8'), new Set(offShelf));
  if (!r.ok) throw r.invalidJson ? new AppError('badRequest') : new AppError('validation', {}, { fields: r.fields });
  return { head: r.head, chunks: preparedInLine(r.latest, chunkSize) };
}

/**
 * Reads an upload's JSON body (the worker when there is one): its head, or an AppError for bad input, and its chunks.
 * `offShelf`: the farm's miners marked off shelf (left out of the farm's minute).
 */
export async function parseUpload(body: Buffer, chunkSize = CHUNK, offShelf: string[] = []): Promise<ParsedUpload> {
  const w = startWorker();
  if (!w) return inLine(body, chunkSize, offShelf);
  const id = nextId++;
  const p = new Pending(() => pending.delete(id));
  pending.set(id, p);
  // A copy goes to the worker (~10 ms for 30 MB): the body stays here for the fallback below.
  const bytes = new Uint8Array(body);
  const msg: WorkerRequest = { id, body: bytes, chunkSize, offShelf };
  w.postMessage(msg, [bytes.buffer as ArrayBuffer]);
  try {
    return { head: await p.head, chunks: p.chunks() };
  } catch (err) {
    if (err instanceof AppError) throw err;
    // The worker failed (it could not load, or crashed): this upload and the next ones are read in line.
    workerBroken = true;
    console.error(`upload worker failed, reading uploads in line: ${err instanceof Error ? err.message : String(err)}`);
    return inLine(body, chunkSize, offShelf);
  }
}

/** Whether uploads go through the worker (running), have not yet (idle), or are read in line since it failed (broken). */
export function uploadWorkerState(): 'idle' | 'running' | 'broken' {
  return workerBroken ? 'broken' : worker ? 'running' : 'idle';
}
