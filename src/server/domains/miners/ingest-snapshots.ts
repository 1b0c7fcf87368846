/**
 * Stores one agent upload: once per (farm, batchSeq), in one transaction. Miners are upserted in bulk, CHUNK
 * miners per statement (20,000 miners = 10 statements); an older reading never overwrites a newer one (rolled-up
 * or late batches). The farm's per-minute row and each miner's hourly row are updated from the same batch, so
 * history needs no second pass.
 *
 * One statement per chunk: the readings go in once, as the JSON array of the snapshots themselves (the columns are
 * read out of each snapshot, so nothing is sent twice) beside a small array of the figures computed here; the miners
 * upsert returns the ids the hourly upsert needs, and only the readings it left out (older than the stored one)
 * look their miner up. The recordset stays in memory (work_mem for this transaction only).
 *
 * Where the time goes (per 20,000-miner steady batch, CPU, measured with the machine shared, so ±15 %): PGlite
 * ~6.4 s (was ~7.1 s with a second statement and parameter per chunk for the hourly rows): moving the ~35 MB
 * parameter into PGlite ~0.8 s, parsing it as jsonb ~0.7 s, and the update of 20,000 miners rows itself ~2 s even
 * when only an unindexed column changes (every update rewrites the row and all its indexes: taken_at, rt5s,
 * version and the chip temperature change every cycle and are indexed, so no update can be HOT); PostgreSQL
 * ~3.3–3.8 s. The sync figures (miners.sync_*) are computed here from the reading rather than as generated
 * columns: four jsonpath walks per row cost PostgreSQL ~1.5–2 s of CPU per batch (migration 202611230130).
 * Measured and not worth it: typed arrays through unnest() instead of jsonb_to_recordset (no measurable gain),
 * the snapshot as json/text instead of jsonb, lz4 instead of pglz for its compression, no compression at all
 * (toast_tuple_target 8160: same CPU, +50 % WAL, 2× the table), the snapshot in a side table
 * miner_snapshots(miner_id, snapshot) with fillfactor 50 (its updates are all HOT and the miners heap halves, but
 * CPU and WAL per batch stay the same: the snapshot bytes are written either way and the miners row still
 * updates every index), and dropping the eight secondary indexes of miners (~0.5 s of 3.5 s on PostgreSQL).
 * miner_stats_hour has fillfactor 50 (migration 202611230200) so its updates are HOT.
 *
 * Measured again for issue 3 (CPU per 20,000-miner steady batch, machine loaded):
 * - PostgreSQL ~2.9 s of database CPU: the jsonb input of the ~30 MB of readings ~0.75 s (numbers become numeric;
 *   json input would be ~0.15 s, see below), pglz compression of every snapshot ~0.45 s, the 11 indexes of miners
 *   ~0.7 s (the same row update costs ~0.1 s on an unindexed copy), the hourly upsert within the noise (≤ 0.2 s),
 *   the rest the rows and their WAL (~55 MB). Migration 202611230300 (lz4 inline, one index fewer) brought it to ~2.3 s; the pipelining
 *   below overlaps the server's ~0.5 s of JSON building with it.
 * - PGlite ~4.5–5 s in process: the same work in WebAssembly, ~3–5× slower (moving the 30 MB of parameters through
 *   PGlite's protocol serializer alone 0.3–0.8 s, its jsonb input ~1.2 s, a bare 20,000-row update of miners ~1.0 s
 *   vacuumed, of which ~0.8 s are the indexes). Its settings do not move it: shared_buffers 512 MB, wal_buffers
 *   64 MB, full_page_writes off, wal_level minimal, synchronous_commit off and an in-memory file system all left the
 *   20,000-row update at the same CPU (file system calls are ~13 % of it; PGlite already runs with fsync off).
 *   COPY from a Blob instead of the parameter was slower (1.4 s for the text alone); no compression (pglz ~0.3 s)
 *   costs as much in bigger rows as it saves.
 * - What would still cut it, outside this file: miners.snapshot as json instead of jsonb (measured: PostgreSQL
 *   −0.5 s; needs the jsonb operators on m.snapshot in miner-sql.ts / miner-options.ts / miner-sn.ts changed), fewer
 *   indexes on miners (~60 ms each on PostgreSQL, ~70 ms on PGlite). Keep rows inline: with list_figures a row is
 *   ~2.0 kB on PGlite (pglz packs it, 4 a page) and ~2.4 kB on PostgreSQL (lz4, toast_tuple_target 2700, 3 a page);
 *   a few hundred bytes more per row would move the snapshot into the TOAST table on every update.
 */
import { sql } from 'kysely';
import type { SnapshotBatch, SnapshotBatchResult } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import type { DB } from '../../db/kysely';
import { listFigures } from './miner-sql';
import { STAT_HOUR_UPSERT } from './miner-stats';

/** Miners per statement. */
const CHUNK = 2000;

function tempMax(s: MinerSnapshot): number | null {
  let max = -Infinity;
  for (const b of s.boards) {
    for (const t of b.tempChip) if (t > max) max = t;
    for (const t of b.tempPcb) if (t > max) max = t;
  }
  return Number.isFinite(max) ? max : null;
}

/** Highest / lowest number of `lists` (null when they are all empty), as hf_jsonb_max / hf_jsonb_min of migration 202611230105. */
function extreme(lists: Iterable<readonly number[]>, max: boolean): number | null {
  let best: number | null = null;
  for (const list of lists) for (const v of list) if (best === null || (max ? v > best : v < best)) best = v;
  return best;
}

/** The sync figures (miners.sync_*; plain columns since migration 202611230130) of one reading. */
function syncFigures(s: MinerSnapshot): { tcm: number | null; tpm: number | null; fmin: number | null; fmax: number | null } {
  return {
    tcm: extreme(s.boards.map((b) => b.tempChip), true),
    tpm: extreme(s.boards.map((b) => b.tempPcb), true),
    fmin: extreme([s.fans], false),
    fmax: extreme([s.fans], true),
  };
}

/** One reading per ip: the latest (by takenAt; on a tie the later one in the upload), as the upsert rule would leave it. */
function latestPerIp(snapshots: MinerSnapshot[]): MinerSnapshot[] {
  const byIp = new Map<string, MinerSnapshot>();
  for (const s of snapshots) {
    const prev = byIp.get(s.ip);
    if (!prev || Date.parse(prev.takenAt) <= Date.parse(s.takenAt)) byIp.set(s.ip, s);
  }
  return byIp.size === snapshots.length ? snapshots : [...byIp.values()];
}

export async function ingestSnapshots(db: DB, agentKey: string, batch: SnapshotBatch): Promise<SnapshotBatchResult> {
  return db.transaction().execute(async (trx) => {
    const fresh = await trx
      .insertInto('snapshot_batches')
      .values({ agent_key: agentKey, batch_seq: batch.batchSeq, cycle_started_at: batch.cycleStartedAt, miner_count: batch.snapshots.length, rolled_up: Boolean(batch.rolledUp) })
      .onConflict((oc) => oc.columns(['agent_key', 'batch_seq']).doNothing())
      .returning('batch_seq')
      .executeTakeFirst();
    if (!fresh) return { accepted: 0, duplicate: true };
    if (batch.snapshots.length === 0) return { accepted: 0, duplicate: false };

    // The chunk's recordset is kept in memory (a spill to temporary files costs PGlite file writes), only for this transaction.
    await sql`set local work_mem = '64MB'`.execute(trx);
    const snapshots = latestPerIp(batch.snapshots);
    // Pipelined: the next chunk's parameters (JSON of ~3 MB) are built while the database works on this one, so on
    // PostgreSQL the server's share overlaps the database's instead of adding to it (one statement in flight at a time).
    let inFlight: Promise<unknown> | null = null;
    for (let i = 0; i < snapshots.length; i += CHUNK) {
      const chunk = snapshots.slice(i, i + CHUNK);
      // Figures computed here, one array per reading: [temp_max, sync_temp_chip_max, sync_temp_pcb_max, sync_fan_min, sync_fan_max, elapsed_sec,
      // list_figures (the list's figures of the reading as JSON text: miner-sql.ts listFigures)].
      const figures = chunk.map((s) => {
        const f = syncFigures(s);
        return [tempMax(s), f.tcm, f.tpm, f.fmin, f.fmax, Math.round(s.elapsedSec), JSON.stringify(listFigures(s))];
      });
      const statement = sql`
        with x as materialized (
          select e.s as snap, r.*, (e.f ->> 0)::float8 as tmax, (e.f ->> 1)::float8 as tcm, (e.f ->> 2)::float8 as tpm,
                 (e.f ->> 3)::float8 as fmin, (e.f ->> 4)::float8 as fmax, (e.f ->> 5)::bigint as el, e.f ->> 6 as lf
          from rows from (jsonb_array_elements(${JSON.stringify(chunk)}::jsonb), jsonb_array_elements(${JSON.stringify(figures)}::jsonb)) as e(s, f)
          cross join lateral jsonb_to_record(e.s) as r(ip text, sn text, mac text, make text, model text, family text, "firmwareVersion" text,
               "compileTime" timestamptz, online boolean, "missedPolls" int, rt5s float8, "rate30m" float8, avg float8, ideal float8,
               "workMode" text, "faultLabels" jsonb, state jsonb, "takenAt" timestamptz)
        ),
        up as (
          insert into miners (agent_key, ip, sn, mac, make, model, family, firmware_version, compile_time, online, missed_polls,
                              rt5s, rate30m, avg, ideal, work_mode, elapsed_sec, temp_max, fault_labels, state, snapshot, taken_at, updated_at,
                              sync_temp_chip_max, sync_temp_pcb_max, sync_fan_min, sync_fan_max, list_figures,
                              stat_hour_at, stat_hour_samples, stat_hour_online, stat_hour_real_sum, stat_hour_ideal_sum)
          select ${agentKey}, x.ip, x.sn, x.mac, x.make, x.model, x.family, x."firmwareVersion", x."compileTime", x.online, x."missedPolls",
                 x.rt5s, x."rate30m", x.avg, x.ideal, x."workMode", x.el, x.tmax,
                 coalesce(array(select jsonb_array_elements_text(x."faultLabels")), '{}'), x.state, x.snap, x."takenAt", now(),
                 x.tcm, x.tpm, x.fmin, x.fmax, x.lf,
                 date_trunc('hour', x."takenAt"), 1, x.online::int, x.rt5s, x.ideal
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
            updated_at = now(), version = nextval('row_version_seq')
          where miners.taken_at <= excluded.taken_at
          returning id, ip
        )
        -- Hourly per-miner history from every reading, also the older ones the upsert left out (their miner's id looked up).
        insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples)
        select coalesce(up.id, (select m.id from miners m where m.agent_key = ${agentKey} and m.ip = x.ip)),
               date_trunc('hour', x."takenAt"), 1, x.rt5s, x.ideal, x.tmax, case when x.online then 1 else 0 end
        from x left join up on up.ip = x.ip
        on conflict (miner_id, at) do update set
          samples = miner_stats_hour.samples + 1,
          real_sum = miner_stats_hour.real_sum + excluded.real_sum,
          ideal_sum = miner_stats_hour.ideal_sum + excluded.ideal_sum,
          temp_max = greatest(miner_stats_hour.temp_max, excluded.temp_max),
          online_samples = miner_stats_hour.online_samples + excluded.online_samples
      `;
      if (inFlight) await inFlight;
      inFlight = statement.execute(trx);
      // A failure surfaces at the await above or below; this only keeps it from counting as unhandled meanwhile.
      inFlight.catch(() => undefined);
      // Let the statement reach the database (a few promise hops inside Kysely) before building the next chunk.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (inFlight) await inFlight;

    // The farm's minute: totals of this cycle (a rolled-up batch lands on its own cycle minute).
    let real = 0;
    let ideal = 0;
    let online = 0;
    let qualified = 0;
    let tMax: number | null = null;
    let tSum = 0;
    let tN = 0;
    for (const s of snapshots) {
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
    const minute = new Date(Math.floor(new Date(batch.cycleStartedAt).getTime() / 60_000) * 60_000);
    await trx
      .insertInto('farm_stats_minute')
      .values({ agent_key: agentKey, at: minute, real_ghs: real, ideal_ghs: ideal, total: snapshots.length, online, qualified, temp_max: tMax, temp_avg: tN ? tSum / tN : null })
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
    return { accepted: batch.snapshots.length, duplicate: false };
  });
}
