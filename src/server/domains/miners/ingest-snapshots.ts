/**
 * Stores one agent upload: once per (farm, batchSeq), in one transaction. Miners are upserted in bulk
 * from JSON parameters, CHUNK miners per statement (20,000 miners = 10 statements); an older reading
 * never overwrites a newer one (rolled-up or late batches). The farm's per-minute row and each miner's
 * hourly row are updated from the same batch, so history needs no second pass.
 *
 * Where the time goes (tests/bench, snapshot-ingest): PostgreSQL parsing the JSON parameter (the raw
 * snapshots are ~1.5 kB each) and rewriting each miner row with its jsonb snapshot and five indexes.
 * Hence: the hourly statement gets a compact parameter of the six fields it reads instead of the whole
 * upload again, and chunks keep the parameter, the recordset (no spill to temp files) and PGlite's
 * WebAssembly heap small. The sync figures (miners.sync_*) are computed here from the reading rather than as
 * generated columns: four jsonpath walks per row cost PostgreSQL ~1.5–2 s of CPU per 20,000-miner batch
 * (migration 202611230130). Measured and not worth it: typed arrays through unnest() instead of
 * jsonb_to_recordset (no measurable gain: the cost is writing the rows and their indexes, not reading the parameter),
 * the snapshot as json/text instead of jsonb, and lz4 instead of pglz for its compression.
 */
import { sql } from 'kysely';
import type { SnapshotBatch, SnapshotBatchResult } from '@shared/schemas/agent-uplink';
import type { MinerSnapshot } from '@shared/schemas/miner-snapshot';
import type { DB } from '../../db/kysely';

/** Miners per statement pair. */
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

    const snapshots = latestPerIp(batch.snapshots);
    for (let i = 0; i < snapshots.length; i += CHUNK) {
      const rows = snapshots.slice(i, i + CHUNK).map((s) => ({
        ip: s.ip,
        sn: s.sn,
        mac: s.mac,
        make: s.make,
        model: s.model,
        family: s.family,
        fw: s.firmwareVersion,
        ct: s.compileTime,
        online: s.online,
        missed: s.missedPolls,
        rt5s: s.rt5s,
        r30: s.rate30m,
        avg: s.avg,
        ideal: s.ideal,
        wm: s.workMode,
        el: Math.round(s.elapsedSec),
        tmax: tempMax(s),
        ...syncFigures(s),
        faults: s.faultLabels,
        state: s.state,
        snap: s,
        taken: s.takenAt,
      }));
      await sql`
        insert into miners (agent_key, ip, sn, mac, make, model, family, firmware_version, compile_time, online, missed_polls,
                            rt5s, rate30m, avg, ideal, work_mode, elapsed_sec, temp_max, fault_labels, state, snapshot, taken_at, updated_at,
                            sync_temp_chip_max, sync_temp_pcb_max, sync_fan_min, sync_fan_max)
        select ${agentKey}, x.ip, x.sn, x.mac, x.make, x.model, x.family, x.fw, x.ct, x.online, x.missed,
               x.rt5s, x.r30, x.avg, x.ideal, x.wm, x.el, x.tmax,
               coalesce(array(select jsonb_array_elements_text(x.faults)), '{}'), x.state, x.snap, x.taken, now(),
               x.tcm, x.tpm, x.fmin, x.fmax
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(ip text, sn text, mac text, make text, model text, family text, fw text, ct timestamptz,
             online boolean, missed int, rt5s float8, r30 float8, avg float8, ideal float8, wm text, el bigint, tmax float8,
             faults jsonb, state jsonb, snap jsonb, taken timestamptz, tcm float8, tpm float8, fmin float8, fmax float8)
        on conflict (agent_key, ip) do update set
          sn = excluded.sn, mac = excluded.mac, make = excluded.make, model = excluded.model, family = excluded.family,
          firmware_version = excluded.firmware_version, compile_time = excluded.compile_time, online = excluded.online,
          missed_polls = excluded.missed_polls, rt5s = excluded.rt5s, rate30m = excluded.rate30m, avg = excluded.avg,
          ideal = excluded.ideal, work_mode = excluded.work_mode, elapsed_sec = excluded.elapsed_sec, temp_max = excluded.temp_max,
          fault_labels = excluded.fault_labels, state = excluded.state, snapshot = excluded.snapshot, taken_at = excluded.taken_at,
          sync_temp_chip_max = excluded.sync_temp_chip_max, sync_temp_pcb_max = excluded.sync_temp_pcb_max,
          sync_fan_min = excluded.sync_fan_min, sync_fan_max = excluded.sync_fan_max,
          updated_at = now(), version = nextval('row_version_seq')
        where miners.taken_at <= excluded.taken_at
      `.execute(trx);

      // Hourly per-miner history, from the same readings (only the fields it needs).
      const hourly = JSON.stringify(rows.map((r) => ({ ip: r.ip, rt5s: r.rt5s, ideal: r.ideal, tmax: r.tmax, online: r.online, taken: r.taken })));
      await sql`
        insert into miner_stats_hour (miner_id, at, samples, real_sum, ideal_sum, temp_max, online_samples)
        select m.id, date_trunc('hour', x.taken), 1, x.rt5s, x.ideal, x.tmax, case when x.online then 1 else 0 end
        from jsonb_to_recordset(${hourly}::jsonb) as x(ip text, rt5s float8, ideal float8, tmax float8, online boolean, taken timestamptz)
        join miners m on m.agent_key = ${agentKey} and m.ip = x.ip
        on conflict (miner_id, at) do update set
          samples = miner_stats_hour.samples + 1,
          real_sum = miner_stats_hour.real_sum + excluded.real_sum,
          ideal_sum = miner_stats_hour.ideal_sum + excluded.ideal_sum,
          temp_max = greatest(miner_stats_hour.temp_max, excluded.temp_max),
          online_samples = miner_stats_hour.online_samples + excluded.online_samples
      `.execute(trx);
    }

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
