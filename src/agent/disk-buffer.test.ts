import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { DiskBuffer } from './disk-buffer';
import { packTexts } from './snapshot-texts';

const dirs: string[] = [];
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-spool-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function snap(ip: string, takenAt: string, rt: number): MinerSnapshot {
  return {
    ip, mac: '', sn: `SN${ip}`, make: 'Antminer', model: 'S19', family: 'antminer-stock', firmwareVersion: '', compileTime: null,
    rt5s: rt, rate30m: rt, avg: rt, ideal: 95000, boards: [], fans: [], pools: [], workMode: 'normal', elapsedSec: 1, errorCodes: [],
    online: true, missedPolls: 0,
    state: { online: true, qualified: true, unqualified: false, zeroHashrate: false, cannotStart: false, illegalPool: false, abnormalIdeal: false, sleeping: false, lowPower: false },
    faultLabels: [], takenAt,
  };
}
const batch = (i: number, ips = ['10.0.0.1', '10.0.0.2']) => ({
  agentVersion: 't', cycleStartedAt: `2026-01-01T00:${String(i).padStart(2, '0')}:00.000Z`, cycleDurationMs: 5,
  snapshots: ips.map((ip) => snap(ip, `2026-01-01T00:${String(i).padStart(2, '0')}:00.000Z`, i)),
});
const decode = (gz: Buffer) => JSON.parse(zlib.gunzipSync(gz).toString()) as SnapshotBatch;

describe('DiskBuffer', () => {
  it('assigns monotonic seqs that survive a restart and drains in order, deleting only after success', async () => {
    const dir = tmp();
    const b = new DiskBuffer({ dir });
    expect(b.enqueue(batch(1)).batchSeq).toBe(1);
    expect(b.enqueue(batch(2)).batchSeq).toBe(2);
    const b2 = new DiskBuffer({ dir });
    expect(b2.seqs()).toEqual([1, 2]);
    expect(b2.enqueue(batch(3)).batchSeq).toBe(3);
    const got: number[] = [];
    let fail = true;
    const r1 = await b2.drain(async (gz) => {
      got.push(decode(gz).batchSeq);
      if (decode(gz).batchSeq === 2 && fail) return false;
      return true;
    });
    expect(r1).toMatchObject({ sent: 1, remaining: 2, error: true });
    fail = false;
    await b2.drain(async (gz) => {
      got.push(decode(gz).batchSeq);
      return true;
    });
    expect(got).toEqual([1, 2, 2, 3]);
    expect(b2.count).toBe(0);
    // all delivered and deleted: a new agent continues at 4 (seq.json), no reuse
    expect(new DiskBuffer({ dir }).enqueue(batch(4)).batchSeq).toBe(4);
  });
  it('a throwing uploader keeps the batch', async () => {
    const b = new DiskBuffer({ dir: tmp() });
    b.enqueue(batch(1));
    await b.drain(async () => {
      throw new Error('ECONNREFUSED');
    });
    expect(b.seqs()).toEqual([1]);
  });
  it('over the bound, the oldest batches are rolled up (latest per miner), never dropped', () => {
    const b = new DiskBuffer({ dir: tmp(), maxBatches: 4 });
    for (let i = 1; i <= 4; i++) b.enqueue(batch(i));
    b.enqueue(batch(5, ['10.0.0.1', '10.0.0.3']));
    expect(b.count).toBe(4);
    const seqs = b.seqs();
    expect(seqs).toEqual([2, 3, 4, 5]);
    const rolled = b.read(2)!.batch;
    expect(rolled).toMatchObject({ rolledUp: true, rolledUpFrom: 1, rolledUpTo: 2, batchSeq: 2 });
    expect(rolled.snapshots.map((s) => [s.ip, s.rt5s])).toEqual([
      ['10.0.0.1', 2],
      ['10.0.0.2', 2],
    ]);
    for (let i = 6; i <= 9; i++) b.enqueue(batch(i));
    expect(b.count).toBe(4);
    const first = b.read(b.seqs()[0]!)!.batch;
    expect(first.rolledUpFrom).toBe(1);
    expect(first.rolledUpTo).toBe(b.seqs()[0]);
    // the union of covered seqs is contiguous 1..9
    const covered = b.seqs().map((s) => b.read(s)!.batch).flatMap((x) => (x.rolledUp ? [x.rolledUpFrom!, x.rolledUpTo!] : [x.batchSeq, x.batchSeq]));
    expect(covered[0]).toBe(1);
    expect(covered[covered.length - 1]).toBe(9);
    expect(first.snapshots.find((s) => s.ip === '10.0.0.3')?.rt5s).toBe(5);
  });
  it('respects a byte bound as well', () => {
    const b = new DiskBuffer({ dir: tmp(), maxBatches: 1000, maxBytes: 2048 });
    const ips = Array.from({ length: 20 }, (_, i) => `10.0.1.${i}`);
    for (let i = 1; i <= 20; i++) b.enqueue(batch(i % 60, ips));
    expect(b.bytes).toBeLessThanOrEqual(2048 * 2);
    expect(b.read(b.seqs()[0]!)!.batch.rolledUp).toBe(true);
  });
  it('crash safety: leftover temp files are ignored and removed, seq recovered from the files', () => {
    const dir = tmp();
    const b = new DiskBuffer({ dir });
    b.enqueue(batch(1));
    b.enqueue(batch(2));
    // a crash between writing a batch and saving seq.json, plus a half-written temp file
    fs.writeFileSync(path.join(dir, 'seq.json'), JSON.stringify({ next: 1 }));
    fs.writeFileSync(path.join(dir, 'batch-000000000003.json.gz.tmp'), 'garbage');
    const b2 = new DiskBuffer({ dir });
    expect(b2.seqs()).toEqual([1, 2]);
    expect(fs.existsSync(path.join(dir, 'batch-000000000003.json.gz.tmp'))).toBe(false);
    expect(b2.enqueue(batch(3)).batchSeq).toBe(3);
  });
});

describe('enqueuePacked', () => {
  it('stores a cycle packed by poll threads as one batch: head, the parts in order, tail; read back as a batch', () => {
    const b = new DiskBuffer({ dir: tmp() });
    const snap = (i: number) => JSON.stringify({ ip: `10.0.0.${i}`, sn: `SN${i}` });
    const shares = [packTexts([snap(1), snap(3)]), packTexts([]), packTexts([snap(2)])];
    const packed = { parts: shares.flatMap((x) => x.parts), count: 3 };
    expect(b.enqueuePacked({ agentVersion: 't', cycleStartedAt: '2026-11-23T00:00:00.000Z', cycleDurationMs: 5 }, packed).batchSeq).toBe(1);
    const read = b.read(1)!;
    expect(read.batch).toEqual({ agentVersion: 't', cycleStartedAt: '2026-11-23T00:00:00.000Z', cycleDurationMs: 5, batchSeq: 1, snapshots: [1, 3, 2].map((i) => JSON.parse(snap(i))) });
    // an empty cycle is an empty list
    b.enqueuePacked({ agentVersion: 't', cycleStartedAt: '2026-11-23T00:01:00.000Z', cycleDurationMs: 5 }, packTexts([]));
    expect(b.read(2)!.batch.snapshots).toEqual([]);
  });
});
