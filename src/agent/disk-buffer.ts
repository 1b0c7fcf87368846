import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { packedBatch, type PackedSnapshots } from './packed-snapshots';

/**
 * Disk spool for snapshot batches. One gzip file per batch, named by batchSeq
 * (`batch-000000000042.json.gz`), written to a temp name, fsync'd, renamed, directory fsync'd — a crash
 * leaves either the whole batch or nothing. batchSeq is persisted (`seq.json`) and recovered as
 * max(saved, highest file + 1), so it is monotonic across restarts with no gaps and no reuse.
 * The spool is bounded by batch count and bytes: when over, the OLDEST batches are rolled up into one
 * batch holding the latest snapshot per miner (rolledUp, rolledUpFrom..rolledUpTo) instead of being dropped.
 * `drain` uploads in seq order and deletes a file only after the uploader confirms (2xx).
 */

export interface DiskBufferOptions {
  dir: string;
  maxBatches?: number;
  maxBytes?: number;
}

interface Entry {
  seq: number;
  file: string;
  bytes: number;
}

const NAME = /^batch-(\d{12})\.json\.gz$/;

function fsyncDir(dir: string): void {
  let fd: number | null = null;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // some filesystems refuse fsync on directories; the rename is still atomic
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

function writeAtomic(file: string, data: Buffer | string): void {
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, 'w');
  try {
    if (typeof data === 'string') fs.writeSync(fd, data);
    else fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  fsyncDir(path.dirname(file));
}

export class DiskBuffer {
  readonly dir: string;
  private readonly maxBatches: number;
  private readonly maxBytes: number;
  private entries: Entry[] = [];
  private nextSeq = 1;
  private draining: Promise<DrainResult> | null = null;
  /** seq of the batch being uploaded right now (never rolled up under the uploader's feet) */
  private inFlight: number | null = null;

  constructor(o: DiskBufferOptions) {
    this.dir = o.dir;
    this.maxBatches = Math.max(2, o.maxBatches ?? 500);
    this.maxBytes = Math.max(1024, o.maxBytes ?? 512 * 1024 * 1024);
    fs.mkdirSync(this.dir, { recursive: true });
    this.load();
  }

  private load(): void {
    const names = fs.readdirSync(this.dir);
    for (const n of names) if (n.endsWith('.tmp')) fs.rmSync(path.join(this.dir, n), { force: true });
    this.entries = names
      .map((n) => ({ n, m: NAME.exec(n) }))
      .filter((x): x is { n: string; m: RegExpExecArray } => x.m !== null)
      .map(({ n, m }) => ({ seq: Number(m[1]), file: path.join(this.dir, n), bytes: fs.statSync(path.join(this.dir, n)).size }))
      .sort((a, b) => a.seq - b.seq);
    let saved: number;
    try {
      saved = Number((JSON.parse(fs.readFileSync(path.join(this.dir, 'seq.json'), 'utf8')) as { next?: number }).next ?? 1);
    } catch {
      saved = 1;
    }
    const maxFile = this.entries.length ? (this.entries[this.entries.length - 1] as Entry).seq : 0;
    this.nextSeq = Math.max(Number.isFinite(saved) ? saved : 1, maxFile + 1, 1);
  }

  private fileFor(seq: number): string {
    return path.join(this.dir, `batch-${String(seq).padStart(12, '0')}.json.gz`);
  }

  private saveSeq(): void {
    writeAtomic(path.join(this.dir, 'seq.json'), JSON.stringify({ next: this.nextSeq }));
  }

  /** Next batchSeq that will be assigned. */
  peekSeq(): number {
    return this.nextSeq;
  }

  get count(): number {
    return this.entries.length;
  }

  get bytes(): number {
    return this.entries.reduce((s, e) => s + e.bytes, 0);
  }

  /** Sequence numbers currently buffered, oldest first. */
  seqs(): number[] {
    return this.entries.map((e) => e.seq);
  }

  /** Assigns the next batchSeq, writes the batch durably, enforces the bound. Returns the batch as stored. */
  enqueue(b: Omit<SnapshotBatch, 'batchSeq'>): SnapshotBatch {
    const seq = this.nextSeq;
    const batch: SnapshotBatch = { ...b, batchSeq: seq };
    const gz = zlib.gzipSync(JSON.stringify(batch), { level: 6 });
    const file = this.fileFor(seq);
    writeAtomic(file, gz);
    this.nextSeq = seq + 1;
    this.saveSeq();
    this.entries.push({ seq, file, bytes: gz.length });
    this.enforceBound();
    return batch;
  }

  /**
   * Same as enqueue for a cycle's snapshots already serialised and gzip'd (the agent loop: packed-snapshots.ts), so a
   * 20,000-miner cycle never exists here as an object graph or as one text.
   */
  enqueuePacked(b: Omit<SnapshotBatch, 'batchSeq' | 'snapshots'>, packed: PackedSnapshots): { batchSeq: number } {
    const seq = this.nextSeq;
    const head = JSON.stringify({ ...b, batchSeq: seq });
    const gz = packedBatch(`${head.slice(0, -1)},"snapshots":[`, packed, ']}');
    const file = this.fileFor(seq);
    writeAtomic(file, gz);
    this.nextSeq = seq + 1;
    this.saveSeq();
    this.entries.push({ seq, file, bytes: gz.length });
    this.enforceBound();
    return { batchSeq: seq };
  }

  read(seq: number): { gz: Buffer; batch: SnapshotBatch } | null {
    const e = this.entries.find((x) => x.seq === seq);
    if (!e) return null;
    const gz = fs.readFileSync(e.file);
    return { gz, batch: JSON.parse(zlib.gunzipSync(gz).toString('utf8')) as SnapshotBatch };
  }

  /** Rolls up the oldest batches while over the count or byte bound (the newest batch is never touched). */
  private enforceBound(): void {
    while ((this.entries.length > this.maxBatches || this.bytes > this.maxBytes) && this.entries.length >= 3) {
      const skip = this.inFlight !== null && this.entries[0]?.seq === this.inFlight ? 1 : 0;
      const overCount = this.entries.length - this.maxBatches;
      // merge at least two; merge more when far over, but always leave the newest alone
      const take = Math.min(this.entries.length - 1 - skip, Math.max(2, overCount + 1));
      if (take < 2) break;
      const before = this.entries.length;
      this.rollUp(take, skip);
      if (this.entries.length >= before && this.bytes > this.maxBytes) break;
    }
  }

  /** Merges the oldest `n` batches into one (latest snapshot per miner), stored under the newest merged seq. */
  rollUp(n: number, skip = 0): void {
    const group = this.entries.slice(skip, skip + n);
    if (group.length < 2) return;
    const latest = new Map<string, MinerSnapshot>();
    let from = Number.POSITIVE_INFINITY;
    let to = 0;
    let cycleStartedAt = '';
    let cycleDurationMs = 0;
    let agentVersion = '';
    for (const e of group) {
      let b: SnapshotBatch;
      try {
        b = JSON.parse(zlib.gunzipSync(fs.readFileSync(e.file)).toString('utf8')) as SnapshotBatch;
      } catch {
        continue; // unreadable file: its data is lost either way, it is removed below
      }
      from = Math.min(from, b.rolledUpFrom ?? b.batchSeq);
      to = Math.max(to, b.rolledUpTo ?? b.batchSeq);
      cycleStartedAt = b.cycleStartedAt;
      cycleDurationMs = b.cycleDurationMs;
      agentVersion = b.agentVersion;
      for (const s of b.snapshots) {
        const prev = latest.get(s.ip);
        if (!prev || prev.takenAt <= s.takenAt) latest.set(s.ip, s);
      }
    }
    const last = group[group.length - 1] as Entry;
    const seq = last.seq;
    const merged: SnapshotBatch = {
      agentVersion,
      batchSeq: seq,
      cycleStartedAt,
      cycleDurationMs,
      snapshots: [...latest.values()],
      rolledUp: true,
      rolledUpFrom: Number.isFinite(from) ? from : group[0]?.seq,
      rolledUpTo: to || seq,
    };
    const gz = zlib.gzipSync(JSON.stringify(merged), { level: 6 });
    writeAtomic(last.file, gz);
    for (const e of group.slice(0, -1)) fs.rmSync(e.file, { force: true });
    fsyncDir(this.dir);
    this.entries = [...this.entries.slice(0, skip), { seq, file: last.file, bytes: gz.length }, ...this.entries.slice(skip + n)];
  }

  /**
   * Uploads buffered batches oldest first. `upload` resolves true on a 2xx (the file is then deleted) and
   * false/throws otherwise (draining stops; the batch stays for the next attempt). One drain at a time.
   */
  drain(upload: (gz: Buffer, batch: Pick<SnapshotBatch, 'batchSeq'>) => Promise<boolean>): Promise<DrainResult> {
    if (this.draining) return this.draining;
    this.draining = (async () => {
      let sent = 0;
      try {
        while (this.entries.length > 0) {
          const e = this.entries[0] as Entry;
          let gz: Buffer;
          try {
            gz = fs.readFileSync(e.file);
          } catch {
            this.entries.shift();
            continue;
          }
          let ok = false;
          this.inFlight = e.seq;
          try {
            ok = await upload(gz, { batchSeq: e.seq });
          } catch {
            ok = false;
          } finally {
            this.inFlight = null;
          }
          if (!ok) return { sent, remaining: this.entries.length, error: true };
          fs.rmSync(e.file, { force: true });
          fsyncDir(this.dir);
          if (this.entries[0] === e) this.entries.shift();
          else this.entries = this.entries.filter((x) => x !== e);
          sent++;
        }
        return { sent, remaining: 0, error: false };
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }
}

export interface DrainResult {
  sent: number;
  remaining: number;
  error: boolean;
}
