import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors';
import { minerSnapshot } from '../../../../tests/support/miner-snapshots';
import { parseUpload, uploadWorkerState } from './upload-parser';
import { type PreparedChunk, prepareChunks, readUpload } from './upload-prepare';

const takenAt = '2026-03-10T08:00:00.000Z';
const batch = { agentVersion: '1.0.0', batchSeq: 7, cycleStartedAt: takenAt, cycleDurationMs: 900, snapshots: Array.from({ length: 25 }, (_, i) => minerSnapshot(i, { takenAt })) };
const body = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));

async function all(chunks: AsyncIterable<PreparedChunk>): Promise<PreparedChunk[]> {
  const out: PreparedChunk[] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

describe('upload parser (worker thread)', () => {
  it('prepares an upload in the worker exactly as in line', async () => {
    const parsed = await parseUpload(body(batch), 10);
    expect(uploadWorkerState()).toBe('running');
    const inline = readUpload(JSON.stringify(batch));
    if (!inline.ok) throw new Error('the batch is valid');
    expect(parsed.head).toEqual(inline.head);
    expect(parsed.head).toMatchObject({ batchSeq: 7, readings: 25, rolledUp: false });
    const chunks = await all(parsed.chunks);
    expect(chunks).toHaveLength(3);
    expect(chunks).toEqual([...prepareChunks(inline.latest, 10)]);
  });

  it('refuses bad JSON and a batch that fails the schema with the usual errors, and keeps working', async () => {
    await expect(parseUpload(body('{"batchSeq": 5, '))).rejects.toMatchObject({ errorName: 'badRequest' });
    const bad = await parseUpload(body({ ...batch, snapshots: [{ ...batch.snapshots[0], rt5s: -1 }] })).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(AppError);
    expect(bad).toMatchObject({ errorName: 'validation', data: { fields: { 'snapshots.0.rt5s': 'validation.invalid' } } });
    const missing = await parseUpload(body({ batchSeq: 5 })).catch((e: unknown) => e);
    expect(missing).toMatchObject({ errorName: 'validation', data: { fields: { agentVersion: 'validation.required' } } });
    const again = await parseUpload(body({ ...batch, snapshots: [] }));
    expect(again.head).toMatchObject({ readings: 0, minute: null });
    expect(await all(again.chunks)).toEqual([]);
    expect(uploadWorkerState()).toBe('running');
  });

  it('several uploads at once each get their own chunks', async () => {
    const batches = [3, 12, 7].map((n, k) => ({ ...batch, batchSeq: k + 1, snapshots: batch.snapshots.slice(0, n) }));
    const parsed = await Promise.all(batches.map((b) => parseUpload(body(b), 5)));
    const chunks = await Promise.all(parsed.map((p) => all(p.chunks)));
    expect(parsed.map((p) => p.head.readings)).toEqual([3, 12, 7]);
    expect(chunks.map((c) => c.length)).toEqual([1, 3, 2]);
  });
});
