/**
 * An agent upload made ready for the database, with no database at hand (it runs in the upload worker,
 * upload-worker.ts, or in line): one reading per IP, the farm's minute totals, and per chunk of CHUNK miners the two
 * parameters of its statement (ingest-snapshots.ts): a JSON array per reading of its columns and of the figures
 * computed here, and the rest of each reading (stored-reading.ts) as JSON text, one per line.
 */
import { SnapshotBatch, isExactSnapshotBatch } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import { issueKey } from '../../validation-issue';
import { listFiguresText, snapshotFigures } from './miner-sql';
import { storedReading } from './stored-reading';

/** Miners per statement on PostgreSQL (the whole upload is one transaction there). */
export const CHUNK = 2000;
/**
 * Miners per statement and transaction on the embedded PGlite, where a console's request waits for the chunk in
 * progress (ingest-snapshots.ts): 20,000 miners, tests/bench/snapshot-ingest.bench.ts, a console reading the list
 * during an upload waited 230–320 ms once per chunk with 2,000, 115–165 ms with 1,000 and 62–78 ms with 500; the upload
 * took 3.39, 3.56 and 3.94 s.
 */
export const EMBEDDED_CHUNK = 1000;

/** The batch's own fields, what the ingest needs besides the chunks. */
export interface UploadHead {
  batchSeq: number;
  cycleStartedAt: string;
  rolledUp: boolean;
  /** Readings in the upload (the answer's `accepted`). */
  readings: number;
  /** Totals of the farm's minute (null for an empty cycle). */
  minute: MinuteTotals | null;
}

export interface MinuteTotals {
  real: number;
  ideal: number;
  total: number;
  online: number;
  qualified: number;
  tempMax: number | null;
  tempAvg: number | null;
}

/** The two parameters of one chunk's statement. */
export interface PreparedChunk {
  columns: string;
  rests: string;
}

export function tempMax(s: MinerSnapshot): number | null {
  let max = -Infinity;
  for (const b of s.boards) {
    for (const t of b.tempChip) if (t > max) max = t;
    for (const t of b.tempPcb) if (t > max) max = t;
  }
  return Number.isFinite(max) ? max : null;
}

/** One reading per ip: the latest (by takenAt; on a tie the later one in the upload), as the upsert rule would leave it. */
export function latestPerIp(snapshots: MinerSnapshot[]): MinerSnapshot[] {
  const byIp = new Map<string, MinerSnapshot>();
  for (const s of snapshots) {
    const prev = byIp.get(s.ip);
    if (!prev || Date.parse(prev.takenAt) <= Date.parse(s.takenAt)) byIp.set(s.ip, s);
  }
  return byIp.size === snapshots.length ? snapshots : [...byIp.values()];
}

const NO_IPS: ReadonlySet<string> = new Set();

/**
 * The farm's minute of a cycle: online hashrate, ideal, counts and temperatures of its latest readings, less the
 * miners marked off shelf (the agent still polls them while they sit in the repair room): the farm's figures, the
 * dashboard's counters and the hashrate overview count on-shelf miners only, so the farm's series must too.
 */
export function minuteTotals(snapshots: MinerSnapshot[], offShelf: ReadonlySet<string> = NO_IPS): MinuteTotals | null {
  if (snapshots.length === 0) return null;
  let total = 0;
  let real = 0;
  let ideal = 0;
  let online = 0;
  let qualified = 0;
  let tMax: number | null = null;
  let tSum = 0;
  let tN = 0;
  for (const s of snapshots) {
    if (offShelf.size > 0 && offShelf.has(s.ip)) continue;
    total++;
    if (s.online) {
      online++;
      real += s.rt5s;
    }
    ideal += s.ideal;
    if (s.state.qualified) qualified++;
    const t = tempMax(s);
    if (t !== null) {
      tMax = tMax === null ? t : Math.max(tMax, t);
      tSum += t;
      tN++;
    }
  }
  return { real, ideal, total, online, qualified, tempMax: tMax, tempAvg: tN ? tSum / tN : null };
}

/** `offShelf`: the farm's miners marked off shelf (miner-stamps.ts offShelfIps), left out of the farm's minute. */
export function uploadHead(batch: SnapshotBatch, latest: MinerSnapshot[], offShelf: ReadonlySet<string> = NO_IPS): UploadHead {
  return { batchSeq: batch.batchSeq, cycleStartedAt: batch.cycleStartedAt, rolledUp: Boolean(batch.rolledUp), readings: batch.snapshots.length, minute: minuteTotals(latest, offShelf) };
}

/**
 * One chunk's parameters. Per reading, one JSON array: ip, sn, mac, make, model, family, firmwareVersion,
 * compileTime, online, missedPolls, rt5s, rate30m, avg, ideal, workMode, faultLabels, state, takenAt, then the figures
 * computed here: temp_max, sync_temp_chip_max, sync_temp_pcb_max, sync_fan_min, sync_fan_max, elapsed_sec and
 * list_figures (miner-sql.ts listFiguresText). The rests one per line: JSON.stringify never writes a raw line break.
 */
export function prepareChunk(chunk: MinerSnapshot[]): PreparedChunk {
  const columns = chunk.map((s) => {
    // One pass over the reading gives the list figures and the sync columns (their unrounded extremes).
    const f = snapshotFigures(s);
    const tMax = f.tempChipMax === null ? f.tempPcbMax : f.tempPcbMax === null ? f.tempChipMax : Math.max(f.tempChipMax, f.tempPcbMax);
    return [
      s.ip, s.sn, s.mac, s.make, s.model, s.family, s.firmwareVersion, s.compileTime, s.online, s.missedPolls, s.rt5s, s.rate30m, s.avg, s.ideal,
      s.workMode, s.faultLabels, s.state, s.takenAt, tMax, f.tempChipMax, f.tempPcbMax, f.fanMin, f.fanMax, Math.round(s.elapsedSec), listFiguresText(s, f),
    ];
  });
  return { columns: JSON.stringify(columns), rests: chunk.map(storedReading).join('\n') };
}

/** The chunks of an upload's latest readings, each prepared when asked for. */
export function* prepareChunks(latest: MinerSnapshot[], size = CHUNK): Generator<PreparedChunk> {
  for (let i = 0; i < latest.length; i += size) yield prepareChunk(latest.slice(i, i + size));
}

/** prepareChunks as the ingest takes them (an async iterable; made in line, one when asked for). */
export async function* preparedInLine(latest: MinerSnapshot[], size = CHUNK): AsyncGenerator<PreparedChunk> {
  yield* prepareChunks(latest, size);
}

/** An upload's text read and checked: its latest readings and head, or why it is refused. */
export type ReadUpload =
  | { ok: true; batch: SnapshotBatch; latest: MinerSnapshot[]; head: UploadHead }
  | { ok: false; invalidJson: true }
  | { ok: false; invalidJson?: false; fields: Record<string, string> };

/**
 * Parses and checks an upload as the uplink route's body schema would: isExactSnapshotBatch (a hand-written check,
 * ≈ 5× faster than zod) for the usual 20,000-miner upload; only an upload it is not sure of goes through the zod
 * schema, whose failures become the usual field messages (validation-issue.ts).
 */
export function readUpload(text: string, offShelf: ReadonlySet<string> = NO_IPS): ReadUpload {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, invalidJson: true };
  }
  let batch: SnapshotBatch;
  if (isExactSnapshotBatch(data)) batch = data;
  else {
    const r = SnapshotBatch.safeParse(data);
    if (!r.success) {
      const fields: Record<string, string> = {};
      for (const issue of r.error.issues) fields[issue.path.join('.') || '_'] ??= issueKey(issue.message, issue.code);
      return { ok: false, fields };
    }
    batch = r.data;
  }
  const latest = latestPerIp(batch.snapshots);
  return { ok: true, batch, latest, head: uploadHead(batch, latest, offShelf) };
}
