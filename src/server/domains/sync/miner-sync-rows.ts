/**
 * Miner rows of the sync feed (MinerSyncRow): the compact projection the technician's phone keeps, with the list's
 * status and rounding rules, plus the farm's marks of the miner (customer, accident, off shelf) and their version, and
 * its zone (the sub-area path holding its IP, as the list shows it: a technician finds the rack by it).
 * Temperatures and fans come from columns stored with the snapshot (migration 202611230105, the same expressions
 * as the list's COLUMN_SQL), error codes from the list figures the ingest stores: the compressed snapshot itself is
 * not read here (only for a row stored before list figures existed), which keeps a 20,000-row feed cheap.
 *
 * Each row leaves the database as its JSON text (sync-feed.ts `SyncSource`): decoding 27 fields per row into
 * JavaScript values and serialising them again cost several times the query itself (PGlite decodes every field).
 * The expressions below therefore apply in SQL what the JavaScript did: upper-case SN, the statuses in catalogue
 * order (minerStatuses), temperatures rounded like `round()` (half up, 2 digits), ISO `takenAt` in UTC.
 */
import { type RawBuilder, sql } from 'kysely';
import { MINER_STATUSES } from '@shared/miner-labels';
import type { MinerSyncRow } from '@shared/schemas/sync';
import { MAY_HAVE_ERROR_CODES, ZONE_PATH_SQL, errorCodesSql } from '../miners/miner-sql';
import type { DB } from '../../db/kysely';
import { type SyncField, type SyncSource, rowJsonSql } from './sync-feed';

/** minerStatuses(online, state) in SQL: the states that hold, in catalogue order. */
const STATUSES_SQL = sql`array_remove(array[${sql.join(
  MINER_STATUSES.map((s) =>
    s === 'online' ? sql`case when m.online then 'online' end` : s === 'offline' ? sql`case when not m.online then 'offline' end` : sql`case when m.state -> ${sql.lit(s)} = 'true'::jsonb then ${sql.lit(s)} end`,
  ),
)}]::text[], null)`;

/** round(v, 2) of miner-sql.ts (Math.round = floor(x + 0.5)) in double precision. */
const round2 = (column: RawBuilder<unknown>) => sql`floor(${column} * 100 + 0.5) / 100`;

/** Every field of MinerSyncRow with its SQL (aliases: m = miners, k = miner_marks, zones = whether the farm has IP segments); the order of `columns`. */
const MINER_FIELDS: readonly SyncField<keyof MinerSyncRow>[] = [
  ['id', sql`m.id::text`],
  ['ip', sql`m.ip`],
  ['sn', sql`upper(m.sn)`],
  ['mac', sql`m.mac`],
  ['make', sql`m.make`],
  ['model', sql`m.model`],
  ['firmwareVersion', sql`m.firmware_version`],
  ['online', sql`m.online`],
  ['statuses', STATUSES_SQL],
  ['faultLabels', sql`m.fault_labels`],
  // From the list figures, and only when they hold a code (a text search first): most miners report none.
  ['errorCodes', sql`case when ${MAY_HAVE_ERROR_CODES} then coalesce(${errorCodesSql()}, '[]'::json) else '[]'::json end`],
  ['gHS5s', sql`m.rt5s`],
  ['gHSav', sql`m.avg`],
  ['rateIdeal', sql`m.ideal`],
  ['tempChipMax', round2(sql`m.sync_temp_chip_max`)],
  ['tempPcbMax', round2(sql`m.sync_temp_pcb_max`)],
  ['fanMin', sql`m.sync_fan_min`],
  ['fanMax', sql`m.sync_fan_max`],
  ['workMode', sql`m.work_mode`],
  ['customer', sql`k.customer`],
  ['accident', sql`k.accident`],
  ['accidentNote', sql`k.accident_note`],
  ['offShelf', sql`coalesce(k.off_shelf, false)`],
  // Only looked up when the farm has IP segments at all (zones.has_segments: one probe a page, not one a row).
  ['zone', sql`case when zones.has_segments then ${ZONE_PATH_SQL} end`],
  // No shelves yet: the shelf feature fills these.
  ['shelf', sql`null::text`],
  ['seat', sql`null::text`],
  ['takenAt', sql`to_char(m.taken_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`],
  ['marksVersion', sql`coalesce(k.version::text, '0')`],
  ['version', sql`m.sync_version::text`],
];

/** The FROM clause of the fields (aliases m, k, zones); the caller filters m by farm. */
const minersOf = (agentKey: string) => sql`
    from miners m
    left join miner_marks k on k.agent_key = m.agent_key and k.ip = m.ip
    cross join (select exists (select 1 from sub_area_segments s where s.agent_key = ${agentKey}) as has_segments) zones`;

export const minerSyncSource: SyncSource = {
  fields: MINER_FIELDS,
  version: sql`m.sync_version`,
  from: (q) => sql`
    ${minersOf(q.agentKey)}
    where m.agent_key = ${q.agentKey} and m.sync_version > ${q.since}::bigint and m.sync_version <= ${q.upTo}::bigint
    order by m.sync_version
    limit ${q.take}`,
};

/** One miner of the farm as the feed gives it now (object format), or null when the farm has no such miner. */
export async function readMinerSyncRow(db: DB, agentKey: string, id: string): Promise<MinerSyncRow | null> {
  const { rows } = await sql<{ json: string }>`
    select ${rowJsonSql(MINER_FIELDS, 'objects')}::text as json
    ${minersOf(agentKey)}
    where m.agent_key = ${agentKey} and m.id = ${id}
  `.execute(db);
  return rows[0] ? (JSON.parse(rows[0].json) as MinerSyncRow) : null;
}
