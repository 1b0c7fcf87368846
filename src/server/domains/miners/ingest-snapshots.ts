/**
 * Stores one agent upload once per (farm, batchSeq). Miners are upserted in bulk, CHUNK miners per statement on
 * PostgreSQL (20,000 miners = 10 statements), EMBEDDED_CHUNK on PGlite (upload-prepare.ts); an older reading never
 * overwrites a newer one (rolled-up or late batches). The farm's per-minute row and each miner's hourly row are
 * updated from the same batch, so history needs no second pass.
 *
 * Transactions: on PostgreSQL the whole upload is one transaction. On the embedded PGlite there is one connection for
 * everything and a transaction holds it, so a 20,000-miner upload in one transaction kept every console request
 * waiting for its whole length (3.5–5.8 s, once a minute). There each chunk is a transaction of its own, and the
 * console's requests run between chunks. A chunk's transaction also marks it applied (snapshot_batch_chunks) and the
 * batch is marked complete at the end (snapshot_batches.complete, migration 202611230320): a batch cut short (crash,
 * error) is not a duplicate, and its retry applies only the chunks that are missing, so every reading is counted
 * once. Between chunks a console may see part of the farm at the new cycle and part at the previous one.
 *
 * One statement per chunk, two parameters: a JSON array per reading of its columns and the figures computed here
 * (jsonb: a third of the bytes), and the rest of each reading as JSON text, one per line, stored as miners.snapshot
 * (json: checked, not converted; stored-reading.ts). The miners upsert returns the ids the hourly upsert needs, and
 * only the readings it left out (older than the stored one) look their miner up. A miner's current hour is kept on its
 * row only; the upsert that starts a new hour hands back the closed bucket (stat_hour_closed) and the same statement
 * writes it to miner_stats_hour (migration 202611230410). The recordset stays in memory (work_mem for this
 * transaction only). After the upload the miners table, which it rewrote, is vacuumed.
 *
 * Cost per 20,000-miner steady upload (tests/bench/snapshot-ingest.bench.ts; round trip = upload, gunzip, JSON parse,
 * validation, this; machine shared with other work, so ±15 %):
 * - Issue 3, session 5: the whole reading went in as jsonb (~30 MB per upload turned into jsonb, compressed and
 *   written every minute) and list_figures as an object with its keys; there was no vacuum between uploads on
 *   PGlite. Now the reading is split (stored-reading.ts), list_figures is an array (miner-sql.ts listFiguresText),
 *   the list figures are computed with plain loops, and each upload is followed by a vacuum. PGlite round trip
 *   5.4 s → 3.4–3.9 s (server CPU 5.8 → 3.4–3.7 s); PostgreSQL 3.0 → 2.6 s (database CPU 2.3 → 1.7 s, WAL 72 → 63 MB).
 *   With a transaction per chunk on PGlite, the longest wait of a console's list request during an upload went from
 *   3.5–5.8 s to ~1 s (now the server parsing the 30 MB upload, not the database; a request waits ~0.3 s per chunk),
 *   with no loss of upload time; later 1,000-miner chunks there halved that wait again (230–320 → 115–165 ms per
 *   chunk) for an upload within its noise (3.39 → 3.56 s). The upload worker (upload-parser.ts) then took the parse,
 *   check and parameter building off the main thread: on PostgreSQL the longest list wait during an upload went from
 *   ~0.63 s to ~0.06 s; upload time moved within the noise (PGlite, quiet machine, alternating: 2.83–3.0 s in line, 2.7–2.78 s with the
 *   worker).
 *   What is left on PGlite: the parameters' trip into WebAssembly and their parsing ~0.8 s, the Node work of
 *   the upload (gunzip, parse, validation, building the parameters) ~1 s, the update of 20,000 rows and their ten
 *   indexes ~1.5 s (no update can be HOT: rt5s, taken_at, version and the chip temperature change every cycle and
 *   are indexed for the list's sorts and the data stamp).
 * - Earlier measurements, still true: typed arrays through unnest() instead of JSON recordsets gain nothing; the
 *   snapshot in a side table with HOT updates leaves CPU and WAL the same (the bytes are written either way and the
 *   miners row still updates every index); each index of miners costs ~60 ms on PostgreSQL and ~70 ms on PGlite per
 *   upload; PGlite's settings (shared_buffers, wal_buffers, full_page_writes, wal_level, synchronous_commit, an
 *   in-memory file system) do not move it, and COPY from a Blob was slower than the parameter. The sync figures
 *   (miners.sync_*) are computed here rather than as generated columns (jsonpath walks cost PostgreSQL 1.5–2 s per
 *   upload, migration 202611230130).
 * - Migration 202611230410 (the current hour on the miner's row only, its history row written when the hour closes,
 *   instead of an upsert of every miner's miner_stats_hour row with every upload; only miners vacuumed after it):
 *   PostgreSQL CPU per steady upload 1.93–2.05 → 1.51–1.64 s, round trip 2.66 → 2.12–2.16 s (same day, quiet
 *   machine); PGlite within its spread (3.6–4.2 s either way). The first upload of an hour also inserts the closed
 *   hour's 20,000 rows: PostgreSQL CPU 2.7–3.4 → 3.65 s, once an hour.
 * - Migration 202611230400 (the counting index miners_farm_counts and the generated state_bits / fault_bits, which
 *   make the counters after every cycle an index-only scan) added ~0.1 s of PostgreSQL CPU and 5 MiB of WAL per upload
 *   (1.76–1.82 → 1.89–1.91 s; alternating runs); on PGlite the difference was inside the runs' spread (±0.5 s).
 */
import { type RawBuilder, sql } from 'kysely';
import type { SnapshotBatch, SnapshotBatchResult } from '@shared/schemas/agent-uplink';
import { type DB, inBackground, inTransaction, isEmbedded } from '../../db/kysely';
import { noteUpload, offShelfIps } from './miner-stamps';
import { STAT_HOUR_UPSERT } from './miner-stats';
import { CHUNK, EMBEDDED_CHUNK, type MinuteTotals, type PreparedChunk, type UploadHead, latestPerIp, preparedInLine, uploadHead } from './upload-prepare';

export interface IngestOptions {
  /** Miners per chunk (tests). */
  chunkSize?: number;
  /** Fail after this many chunks were applied: a crash in the middle of a batch (tests). */
  failAfterChunks?: number;
  /** A transaction per chunk (default: on the embedded PGlite only, see the file comment). */
  chunkTransactions?: boolean;
}

/** Miners per chunk on this database: smaller on PGlite, where the console's requests wait between chunks. */
export function chunkSizeOf(db: DB): number {
  return isEmbedded(db) ? EMBEDDED_CHUNK : CHUNK;
}

/** Stores a batch (tests and callers that hold one; the uplink route prepares its uploads in the upload worker). */
export async function ingestSnapshots(db: DB, agentKey: string, batch: SnapshotBatch, opts: IngestOptions = {}): Promise<SnapshotBatchResult> {
  const latest = latestPerIp(batch.snapshots);
  const head = uploadHead(batch, latest, new Set(await offShelfIps(db, agentKey)));
  return ingestPrepared(db, agentKey, head, preparedInLine(latest, opts.chunkSize ?? chunkSizeOf(db)), opts);
}

/**
 * Stores a prepared upload (upload-prepare.ts): its head, and its chunks in order as they become ready (the next
 * one is asked for while the database works on the current one).
 */
export async function ingestPrepared(db: DB, agentKey: string, head: UploadHead, chunks: AsyncIterable<PreparedChunk>, opts: IngestOptions = {}): Promise<SnapshotBatchResult> {
  const result = (opts.chunkTransactions ?? isEmbedded(db))
    ? await applyBatch(db, agentKey, head, chunks, opts)
    : await db.transaction().execute((trx) => applyBatch(trx, agentKey, head, chunks, opts));
  if (result.accepted > 0) noteUpload(db, agentKey);
  // The rows this upload replaced are dead now: vacuumed at once, the next upload's row versions reuse their space.
  // PGlite has no autovacuum; without this an upload left ~40 MB of dead rows until the 10-minute maintenance, and every
  // upload in between was slower (20,000 miners on PGlite: ~6 s → ~4.8 s of CPU per upload, vacuum itself ~60 ms).
  // On PostgreSQL it does early what autovacuum would do; SKIP LOCKED: never wait for an autovacuum or another upload's vacuum.
  // miner_stats_hour is not rewritten by an upload any more (migration 202611230410: a row is written when its hour
  // closes; only a late reading updates one): the 10-minute maintenance vacuums it.
  if (result.accepted > 0) await sql`vacuum (skip_locked) miners`.execute(inBackground(db));
  return result;
}

async function applyBatch(db: DB, agentKey: string, head: UploadHead, chunks: AsyncIterable<PreparedChunk>, opts: IngestOptions): Promise<SnapshotBatchResult> {
  const chunked = !db.isTransaction;
  const seq = String(head.batchSeq);
  const claim = await inTransaction(db, async (trx) => {
    const fresh = await trx
      .insertInto('snapshot_batches')
      .values({ agent_key: agentKey, batch_seq: head.batchSeq, cycle_started_at: head.cycleStartedAt, miner_count: head.readings, rolled_up: head.rolledUp, complete: false })
      .onConflict((oc) => oc.columns(['agent_key', 'batch_seq']).doNothing())
      .returning('batch_seq')
      .executeTakeFirst();
    if (fresh) return 'new';
    const row = await trx.selectFrom('snapshot_batches').select('complete').where('agent_key', '=', agentKey).where('batch_seq', '=', seq).executeTakeFirst();
    return row?.complete ? 'done' : 'resume';
  });
  if (claim === 'done') return { accepted: 0, duplicate: true };
  // A batch cut short before: the chunks it applied are skipped.
  const applied = new Set<number>();
  if (claim === 'resume') {
    const rows = await db.selectFrom('snapshot_batch_chunks').select('chunk').where('agent_key', '=', agentKey).where('batch_seq', '=', seq).execute();
    for (const r of rows) applied.add(r.chunk);
  }

  // The chunk's recordset is kept in memory (a spill to temporary files costs PGlite file writes), only for this transaction.
  if (!chunked) await sql`set local work_mem = '64MB'`.execute(db);
  // Pipelined: the next chunk's parameters (JSON of ~3 MB) are built while the database works on this one, so on
  // PostgreSQL the server's share overlaps the database's instead of adding to it (one statement in flight at a time).
  let inFlight: Promise<unknown> | null = null;
  const it = chunks[Symbol.asyncIterator]();
  try {
    for (let n = 0; ; n++) {
      const next = await it.next(); // made while the previous chunk's statement runs
      if (next.done) break;
      if (applied.has(n)) continue;
      const statement = chunkStatement(agentKey, next.value, chunked ? { batchSeq: head.batchSeq, chunk: n } : null);
      if (inFlight) await inFlight;
      if (opts.failAfterChunks !== undefined && n >= opts.failAfterChunks) throw new Error('ingest stopped (test)');
      inFlight = chunked
        ? // behind the console's waiting requests (pglite-dialect.ts, Gate): a request is not held up chunk after chunk
          inBackground(db).transaction().execute(async (trx) => {
            // Another copy of this upload may have finished the batch meanwhile (and cleared its chunk marks): stop.
            if (await batchComplete(trx, agentKey, seq, 'share')) throw new BatchDone();
            await sql`set local work_mem = '64MB'`.execute(trx);
            await statement.execute(trx);
          }).then(() => noteUpload(db, agentKey)) // committed: the console's kept results of the farm are stale
        : statement.execute(db);
      // A failure surfaces at the await above or below; this only keeps it from counting as unhandled meanwhile.
      inFlight.catch(() => undefined);
      // Let the statement reach the database (a few promise hops inside Kysely) before making the next chunk.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (inFlight) await inFlight;
  } catch (err) {
    if (err instanceof BatchDone) return { accepted: 0, duplicate: true };
    throw err;
  } finally {
    await it.return?.(); // chunks not asked for are dropped (a failure, another copy done)
  }

  const done = await inTransaction(db, async (trx) => {
    if (await batchComplete(trx, agentKey, seq, 'update')) return true;
    if (head.minute) await farmMinute(trx, agentKey, head.cycleStartedAt, head.minute);
    await trx.updateTable('snapshot_batches').set({ complete: true }).where('agent_key', '=', agentKey).where('batch_seq', '=', seq).execute();
    if (claim === 'resume' || chunked) await trx.deleteFrom('snapshot_batch_chunks').where('agent_key', '=', agentKey).where('batch_seq', '=', seq).execute();
    return false;
  });
  if (done) return { accepted: 0, duplicate: true };
  return { accepted: head.readings, duplicate: false };
}

/** Thrown inside a chunk's transaction when another copy of the upload completed the batch first. */
class BatchDone extends Error {}

/** Whether the batch is complete, its row locked (share: against completion meanwhile; update: to complete it). */
async function batchComplete(trx: DB, agentKey: string, seq: string, lock: 'share' | 'update'): Promise<boolean> {
  const { rows } = await sql<{ complete: boolean }>`
    select complete from snapshot_batches where agent_key = ${agentKey} and batch_seq = ${seq} ${lock === 'share' ? sql`for share` : sql`for update`}
  `.execute(trx);
  return rows[0]?.complete ?? true;
}

/** The farm's minute: totals of this cycle (a rolled-up batch lands on its own cycle minute), and the farm's counters. */
async function farmMinute(trx: DB, agentKey: string, cycleStartedAt: string, m: MinuteTotals): Promise<void> {
  const minute = new Date(Math.floor(new Date(cycleStartedAt).getTime() / 60_000) * 60_000);
  await trx
    .insertInto('farm_stats_minute')
    .values({ agent_key: agentKey, at: minute, real_ghs: m.real, ideal_ghs: m.ideal, total: m.total, online: m.online, qualified: m.qualified, temp_max: m.tempMax, temp_avg: m.tempAvg })
    .onConflict((oc) =>
      oc.columns(['agent_key', 'at']).doUpdateSet((eb) => ({
        real_ghs: eb.ref('excluded.real_ghs'),
        ideal_ghs: eb.ref('excluded.ideal_ghs'),
        total: eb.ref('excluded.total'),
        online: eb.ref('excluded.online'),
        qualified: eb.ref('excluded.qualified'),
        temp_max: eb.ref('excluded.temp_max'),
        temp_avg: eb.ref('excluded.temp_avg'),
      })),
    )
    .execute();
  await sql`update farms set miner_count = (select count(*) from miners where agent_key = ${agentKey}), last_online_at = now() where agent_key = ${agentKey}`.execute(trx);
}

/**
 * How often a miner's readings reach the phones' offline caches when nothing else of it changed (migration
 * 202611230450): the feed follows miners.sync_version, which a reading moves only when it changes what a technician
 * acts on (identity, online, state flags, fault labels, work mode, ideal hashrate) or when the last move (sync_at) is
 * this old. A steady 20,000-miner farm then sends a phone ~a tenth of its rows a minute instead of all of them.
 */
export const SYNC_READINGS_REFRESH_MINUTES = 10;

/** A new miner's sync_at: its reading's time, set back by up to the refresh period by its IP, so refreshes spread over the period. */
const SYNC_AT_FIRST = sql`x."takenAt" - (abs(hashtext(x.ip)) % ${sql.lit(SYNC_READINGS_REFRESH_MINUTES * 60)}) * interval '1 second'`;

/**
 * The reading (`excluded`) changes what the phone's card shows in substance — identity, online, state flags, fault
 * labels, work mode, ideal hashrate, or a jump of the 5-second hashrate by more than a tenth of the ideal since the
 * previous reading (a reading's noise is a few per cent) — or the stored one's sync is due again. An SN set by hand
 * (sn_override) stays the miner's SN whatever the agent reports (migration 202611230120): the reported one is no change,
 * nor is its "empty-sn" label, which the row does not keep (migration 202611230530), nor its "duplicate-sn" label, which
 * the row keeps only while another miner has the hand-set SN (migration 202611230540; `excluded` went through that check
 * with the reported SN, the row goes through it with the hand-set one).
 */
const SYNC_DUE = sql`(miners.sn is distinct from coalesce(miners.sn_override, excluded.sn) or miners.mac is distinct from excluded.mac or miners.make is distinct from excluded.make
  or miners.model is distinct from excluded.model or miners.firmware_version is distinct from excluded.firmware_version
  or miners.online is distinct from excluded.online or miners.state is distinct from excluded.state
  or (miners.fault_labels is distinct from excluded.fault_labels
      and not (miners.sn_override <> '' and array_remove(miners.fault_labels, 'duplicate-sn') = array_remove(array_remove(excluded.fault_labels, 'empty-sn'), 'duplicate-sn')))
  or miners.work_mode is distinct from excluded.work_mode
  or miners.ideal is distinct from excluded.ideal
  or abs(coalesce(excluded.rt5s, 0) - coalesce(miners.rt5s, 0)) > 0.1 * greatest(coalesce(excluded.ideal, 0), coalesce(miners.rt5s, 0), 1)
  or miners.sync_at is null or excluded.taken_at >= miners.sync_at + interval ${sql.lit(`${SYNC_READINGS_REFRESH_MINUTES} minutes`)})`;

/** SET items of the ingest's miners upsert: a new sync version (and its time) when the phones should get the miner again. */
const SYNC_UPSERT = sql`
  sync_version = case when ${SYNC_DUE} then nextval('row_version_seq') else miners.sync_version end,
  sync_at = case when ${SYNC_DUE} then excluded.taken_at else miners.sync_at end`;

/**
 * The one statement of a chunk (one round trip). With `mark` (a transaction per chunk) it first marks the chunk
 * applied: a second apply of the same chunk fails on the mark's key instead of counting its readings twice.
 */
function chunkStatement(agentKey: string, chunk: PreparedChunk, mark: { batchSeq: number; chunk: number } | null): RawBuilder<unknown> {
  return sql`
    ${mark ? sql`with mark as (insert into snapshot_batch_chunks (agent_key, batch_seq, chunk) values (${agentKey}, ${mark.batchSeq}, ${mark.chunk})), ` : sql`with `}x as materialized (
      select e.rest::json as snap, c ->> 0 as ip, c ->> 1 as sn, c ->> 2 as mac, c ->> 3 as make, c ->> 4 as model, c ->> 5 as family,
             c ->> 6 as "firmwareVersion", (c ->> 7)::timestamptz as "compileTime", (c ->> 8)::boolean as online, (c ->> 9)::int as "missedPolls",
             (c ->> 10)::float8 as rt5s, (c ->> 11)::float8 as "rate30m", (c ->> 12)::float8 as avg, (c ->> 13)::float8 as ideal,
             c ->> 14 as "workMode", c -> 15 as "faultLabels", c -> 16 as state, (c ->> 17)::timestamptz as "takenAt",
             (c ->> 18)::float8 as tmax, (c ->> 19)::float8 as tcm, (c ->> 20)::float8 as tpm, (c ->> 21)::float8 as fmin,
             (c ->> 22)::float8 as fmax, (c ->> 23)::bigint as el, c ->> 24 as lf
      from rows from (jsonb_array_elements(${chunk.columns}::jsonb), unnest(string_to_array(${chunk.rests}::text, E'\n'))) as e(c, rest)
    ),
    up as (
      insert into miners (agent_key, ip, sn, mac, make, model, family, firmware_version, compile_time, online, missed_polls,
                          rt5s, rate30m, avg, ideal, work_mode, elapsed_sec, temp_max, fault_labels, state, snapshot, taken_at, updated_at,
                          sync_temp_chip_max, sync_temp_pcb_max, sync_fan_min, sync_fan_max, list_figures,
                          stat_hour_at, stat_hour_samples, stat_hour_online, stat_hour_real_sum, stat_hour_ideal_sum,
                          stat_hour_temp_max, stat_day_sums, sync_at)
      select ${agentKey}, x.ip, x.sn, x.mac, x.make, x.model, x.family, x."firmwareVersion", x."compileTime", x.online, x."missedPolls",
             x.rt5s, x."rate30m", x.avg, x.ideal, x."workMode", x.el, x.tmax,
             coalesce(array(select jsonb_array_elements_text(x."faultLabels")), '{}'), x.state, x.snap, x."takenAt", now(),
             x.tcm, x.tpm, x.fmin, x.fmax, x.lf,
             date_trunc('hour', x."takenAt"), 1, x.online::int, x.rt5s, x.ideal, x.tmax, '{0,0}', ${SYNC_AT_FIRST}
      from x
      on conflict (agent_key, ip) do update set
        sn = excluded.sn, mac = excluded.mac, make = excluded.make, model = excluded.model, family = excluded.family,
        firmware_version = excluded.firmware_version, compile_time = excluded.compile_time, online = excluded.online,
        missed_polls = excluded.missed_polls, rt5s = excluded.rt5s, rate30m = excluded.rate30m, avg = excluded.avg,
        ideal = excluded.ideal, work_mode = excluded.work_mode, elapsed_sec = excluded.elapsed_sec, temp_max = excluded.temp_max,
        fault_labels = excluded.fault_labels, state = excluded.state, snapshot = excluded.snapshot, taken_at = excluded.taken_at,
        sync_temp_chip_max = excluded.sync_temp_chip_max, sync_temp_pcb_max = excluded.sync_temp_pcb_max,
        sync_fan_min = excluded.sync_fan_min, sync_fan_max = excluded.sync_fan_max, list_figures = excluded.list_figures,
        ${STAT_HOUR_UPSERT},
        ${SYNC_UPSERT},
        updated_at = now(), version = nextval('row_version_seq')
      where miners.taken_at <= excluded.taken_at
      returning id, ip, stat_hour_closed
    )
    -- Hourly per-miner history: the buckets the upsert closed (a reading of a new hour), and the readings it left out
    -- (older than the stored one: a late batch; their miner's id looked up). A miner is in one of the two at most.
    insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples)
    select up.id, to_timestamp(up.stat_hour_closed[1]), up.stat_hour_closed[2]::int, up.stat_hour_closed[4], up.stat_hour_closed[5],
           up.stat_hour_closed[6], up.stat_hour_closed[3]::int
    from up where up.stat_hour_closed is not null
    union all
    select (select m.id from miners m where m.agent_key = ${agentKey} and m.ip = x.ip),
           date_trunc('hour', x."takenAt"), 1, x.rt5s, x.ideal, x.tmax, case when x.online then 1 else 0 end
    from x where not exists (select 1 from up where up.ip = x.ip)
    on conflict (miner_id, at) do update set
      samples = miner_stats_hour.samples + excluded.samples,
      real_sum = miner_stats_hour.real_sum + excluded.real_sum,
      ideal_sum = miner_stats_hour.ideal_sum + excluded.ideal_sum,
      temp_max = greatest(miner_stats_hour.temp_max, excluded.temp_max),
      online_samples = miner_stats_hour.online_samples + excluded.online_samples
  `;
}
