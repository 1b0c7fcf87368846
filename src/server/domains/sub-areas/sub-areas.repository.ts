/**
 * Sub-areas (a tree of at most 5 levels per farm) and their IP segments (sub-IP). Rules (spec 3 §5):
 * a 6th level is refused ("level limit of 5"); an area with sub-areas cannot be deleted ("delete sub-levels
 * first"); segments go to leaf areas only ("select leaf node"), so an area holding segments gets no
 * children. Deleting a leaf removes its segments (its miners simply leave the area). Segments of one farm
 * never overlap. Every write runs in a transaction that locks the farm's areas, so concurrent edits
 * cannot break the level or overlap rules.
 */
import { type RawBuilder, type Transaction, sql } from 'kysely';
import type { Option, Page } from '@shared/schemas/common';
import { numberToIpv4 } from '@shared/schemas/scan-ip';
import {
  SUB_AREA_LIMITS,
  type SegmentLineError,
  type SubArea,
  type SubIpSegment,
  childLevel,
  parseSegmentLines,
} from '@shared/schemas/sub-areas';
import type { DB } from '../../db/kysely';
import type { Database } from '../../db/schema';
import type {} from '../../db/sub-areas-schema';
import { AppError, fieldError } from '../../errors';
import { noteZoneChange } from '../miners/miner-stamps';

type Trx = Transaction<Database>;
export type Translate = (key: string, vars?: Record<string, string | number>) => string;

interface AreaRow {
  id: number;
  parentId: number | null;
  name: string;
  level: number;
}

/** The numeric value of an IPv4 text column (miners.ip), for range comparisons in SQL. */
export function ipNumberSql(column: RawBuilder<unknown> | string): RawBuilder<number> {
  const col = typeof column === 'string' ? sql.ref(column) : column;
  return sql<number>`(${col}::inet - '0.0.0.0'::inet)`;
}

/**
 * The miner-list filter by sub-area (for find-miners / miner-sql): true when the miner's IP lies in a
 * segment of area `areaId` or of any of its sub-areas, on the area's farm. The ranges are gathered once
 * per query (an uncorrelated array, an InitPlan), so each miner row costs only a scan of a few ranges.
 * `minerAlias` is the alias of the miners table.
 */
export function subAreaMinerFilter(areaId: number, minerAlias = 'm'): RawBuilder<boolean> {
  return sql<boolean>`(
    ${sql.ref(`${minerAlias}.agent_key`)} = (select a.agent_key from sub_areas a where a.id = ${areaId})
    and ${ipNumberSql(`${minerAlias}.ip`)} <@ any (array(
      with recursive tree as (
        select id from sub_areas where id = ${areaId}
        union all select c.id from sub_areas c join tree on c.parent_id = tree.id
      )
      select int8range(s.begin_num, s.end_num, '[]') from sub_area_segments s join tree on s.area_id = tree.id
    ))
  )`;
}

async function lockFarm(trx: Trx, agentKey: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`sub-areas:${agentKey}`}))`.execute(trx);
}

async function loadAreas(db: DB | Trx, agentKey: string): Promise<AreaRow[]> {
  const rows = await db.selectFrom('sub_areas').select(['id', 'parent_id', 'name', 'level']).where('agent_key', '=', agentKey).orderBy('level').orderBy('name').execute();
  return rows.map((r) => ({ id: Number(r.id), parentId: r.parent_id === null ? null : Number(r.parent_id), name: r.name, level: r.level }));
}

function pathOf(areas: Map<number, AreaRow>, id: number): string[] {
  const out: string[] = [];
  let cur = areas.get(id);
  while (cur && out.length <= SUB_AREA_LIMITS.maxLevels) {
    out.unshift(cur.name);
    cur = cur.parentId === null ? undefined : areas.get(cur.parentId);
  }
  return out;
}

/** Every area of the farm, parents before children, with the counts the tree shows. */
export async function listSubAreas(db: DB, agentKey: string): Promise<SubArea[]> {
  const areas = await loadAreas(db, agentKey);
  const byId = new Map(areas.map((a) => [a.id, a]));
  const { rows: seg } = await sql<{ area_id: string | number; n: string | number }>`
    select area_id, count(*) as n from sub_area_segments where agent_key = ${agentKey} group by area_id
  `.execute(db);
  // Each miner's address is converted once (a CTE), then compared with the farm's few segments.
  const { rows: miners } = await sql<{ area_id: string | number; n: string | number }>`
    with ips as materialized (select ${ipNumberSql('m.ip')} as n from miners m where m.agent_key = ${agentKey})
    select s.area_id, count(*) as n from sub_area_segments s
    join ips on ips.n between s.begin_num and s.end_num
    where s.agent_key = ${agentKey} group by s.area_id
  `.execute(db);
  const segCount = new Map(seg.map((r) => [Number(r.area_id), Number(r.n)]));
  const ownMiners = new Map(miners.map((r) => [Number(r.area_id), Number(r.n)]));
  const minerTotal = new Map<number, number>();
  const childCount = new Map<number, number>();
  for (const a of areas) {
    if (a.parentId !== null) childCount.set(a.parentId, (childCount.get(a.parentId) ?? 0) + 1);
    const own = ownMiners.get(a.id) ?? 0;
    let cur: AreaRow | undefined = a;
    for (let i = 0; cur && i < SUB_AREA_LIMITS.maxLevels; i += 1) {
      minerTotal.set(cur.id, (minerTotal.get(cur.id) ?? 0) + own);
      cur = cur.parentId === null ? undefined : byId.get(cur.parentId);
    }
  }
  return areas.map((a) => ({
    id: a.id,
    parentId: a.parentId,
    name: a.name,
    level: a.level,
    path: pathOf(byId, a.id),
    childCount: childCount.get(a.id) ?? 0,
    segmentCount: segCount.get(a.id) ?? 0,
    minerCount: minerTotal.get(a.id) ?? 0,
  }));
}

/** /api/options/area: every area as "Top / Row / Rack", value its id. */
export async function subAreaOptions(db: DB, agentKey: string): Promise<Option[]> {
  const areas = await loadAreas(db, agentKey);
  const byId = new Map(areas.map((a) => [a.id, a]));
  return areas
    .map((a) => ({ text: pathOf(byId, a.id).join(' / '), value: String(a.id) }))
    .sort((a, b) => a.text.localeCompare(b.text));
}

async function segmentCount(trx: Trx, areaId: number): Promise<number> {
  const r = await trx.selectFrom('sub_area_segments').select((eb) => eb.fn.countAll<string>().as('n')).where('area_id', '=', areaId).executeTakeFirstOrThrow();
  return Number(r.n);
}

function nameTaken(areas: AreaRow[], parentId: number | null, name: string, exceptId?: number): boolean {
  const n = name.toLowerCase();
  return areas.some((a) => a.parentId === parentId && a.name.toLowerCase() === n && a.id !== exceptId);
}

/** Creates an area under parentId (null = top level) or renames area `id`. */
export async function saveSubArea(db: DB, agentKey: string, input: { id?: number; parentId?: number; name: string }): Promise<SubArea> {
  const id = await db.transaction().execute(async (trx) => {
    await lockFarm(trx, agentKey);
    const areas = await loadAreas(trx, agentKey);
    const byId = new Map(areas.map((a) => [a.id, a]));
    if (input.id !== undefined) {
      const area = byId.get(input.id);
      if (!area) throw new AppError('notFound');
      if (nameTaken(areas, area.parentId, input.name, area.id)) throw fieldError('name', 'validation.subAreaNameTaken');
      await trx.updateTable('sub_areas').set({ name: input.name, updated_at: new Date() }).where('id', '=', area.id).execute();
      return area.id;
    }
    const parent = input.parentId === undefined ? null : byId.get(input.parentId);
    if (parent === undefined) throw fieldError('parentId', 'validation.subAreaParentUnknown');
    const lvl = childLevel(parent?.level ?? 0);
    if ('key' in lvl) throw fieldError('parentId', lvl.key);
    if (parent && (await segmentCount(trx, parent.id)) > 0) throw fieldError('parentId', 'validation.subAreaHasSegments');
    if (areas.length >= SUB_AREA_LIMITS.maxAreasPerFarm) throw fieldError('name', 'validation.subAreaTooMany');
    if (nameTaken(areas, parent?.id ?? null, input.name)) throw fieldError('name', 'validation.subAreaNameTaken');
    const row = await trx
      .insertInto('sub_areas')
      .values({ agent_key: agentKey, parent_id: parent?.id ?? null, name: input.name, level: lvl.level })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  });
  noteZoneChange(agentKey);
  const all = await listSubAreas(db, agentKey);
  return all.find((a) => a.id === id)!;
}

/** Moves area `id` (with its sub-areas) under parentId (null = top level). */
export async function moveSubArea(db: DB, agentKey: string, id: number, parentId: number | null): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockFarm(trx, agentKey);
    const areas = await loadAreas(trx, agentKey);
    const byId = new Map(areas.map((a) => [a.id, a]));
    const area = byId.get(id);
    if (!area) throw new AppError('notFound');
    const parent = parentId === null ? null : byId.get(parentId);
    if (parent === undefined) throw fieldError('parentId', 'validation.subAreaParentUnknown');
    // The subtree: area and its descendants, with the depth below area.
    const subtree: { a: AreaRow; depth: number }[] = [{ a: area, depth: 0 }];
    for (let i = 0; i < subtree.length; i += 1) {
      const cur = subtree[i]!;
      for (const c of areas) if (c.parentId === cur.a.id) subtree.push({ a: c, depth: cur.depth + 1 });
    }
    if (parent && subtree.some((s) => s.a.id === parent.id)) throw fieldError('parentId', 'validation.subAreaMoveIntoSelf');
    const newLevel = (parent?.level ?? 0) + 1;
    const deepest = Math.max(...subtree.map((s) => s.depth));
    if (newLevel + deepest > SUB_AREA_LIMITS.maxLevels) throw fieldError('parentId', 'validation.subAreaLevelLimit');
    if (parent && (await segmentCount(trx, parent.id)) > 0) throw fieldError('parentId', 'validation.subAreaHasSegments');
    if (nameTaken(areas, parent?.id ?? null, area.name, area.id)) throw fieldError('parentId', 'validation.subAreaNameTaken');
    if ((area.parentId ?? null) === (parent?.id ?? null)) return;
    await trx.updateTable('sub_areas').set({ parent_id: parent?.id ?? null, updated_at: new Date() }).where('id', '=', area.id).execute();
    for (const s of subtree) await trx.updateTable('sub_areas').set({ level: newLevel + s.depth }).where('id', '=', s.a.id).execute();
  });
  noteZoneChange(agentKey);
}

/** Deletes a leaf area and its segments; an area with sub-areas is refused ("delete sub-levels first"). */
export async function deleteSubArea(db: DB, agentKey: string, id: number): Promise<{ segments: number }> {
  const done = await db.transaction().execute(async (trx) => {
    await lockFarm(trx, agentKey);
    const area = await trx.selectFrom('sub_areas').select('id').where('agent_key', '=', agentKey).where('id', '=', id).executeTakeFirst();
    if (!area) throw new AppError('notFound');
    const child = await trx.selectFrom('sub_areas').select('id').where('parent_id', '=', id).limit(1).executeTakeFirst();
    if (child) throw fieldError('id', 'validation.subAreaDeleteChildrenFirst');
    const segments = await segmentCount(trx, id);
    await trx.deleteFrom('sub_areas').where('id', '=', id).execute();
    return { segments };
  });
  noteZoneChange(agentKey);
  return done;
}

// ─── Sub-IP segments ───

function toSegment(r: {
  id: string;
  area_id: string | number;
  segment: string;
  begin_num: string | number;
  end_num: string | number;
  remark: string;
  created_at: Date;
  miner_count: string | number;
}, areaPath: string): SubIpSegment {
  const begin = Number(r.begin_num);
  const end = Number(r.end_num);
  return {
    id: r.id,
    areaId: Number(r.area_id),
    areaPath,
    segment: r.segment,
    ipBegin: numberToIpv4(begin),
    ipEnd: numberToIpv4(end),
    amount: end - begin + 1,
    remark: r.remark,
    minerCount: Number(r.miner_count),
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** Paged segments of the farm (or of one area and its sub-areas), ordered by address. */
export async function listSubIps(db: DB, agentKey: string, q: { areaId?: number; page: number; pageSize: number }): Promise<Page<SubIpSegment>> {
  const areas = await loadAreas(db, agentKey);
  const byId = new Map(areas.map((a) => [a.id, a]));
  let areaIds: number[] | null = null;
  if (q.areaId !== undefined) {
    if (!byId.has(q.areaId)) throw new AppError('notFound');
    areaIds = [q.areaId];
    for (let i = 0; i < areaIds.length; i += 1) for (const a of areas) if (a.parentId === areaIds[i]) areaIds.push(a.id);
  }
  const where = areaIds ? sql`and s.area_id = any(${areaIds}::bigint[])` : sql``;
  const { rows: totalRows } = await sql<{ n: string | number }>`select count(*) as n from sub_area_segments s where s.agent_key = ${agentKey} ${where}`.execute(db);
  const { rows } = await sql<{
    id: string;
    area_id: string | number;
    segment: string;
    begin_num: string | number;
    end_num: string | number;
    remark: string;
    created_at: Date;
    miner_count: string | number;
  }>`
    with page as (
      select s.id, s.area_id, s.segment, s.begin_num, s.end_num, s.remark, s.created_at
      from sub_area_segments s where s.agent_key = ${agentKey} ${where}
      order by s.begin_num limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}
    ),
    ips as materialized (select ${ipNumberSql('m.ip')} as n from miners m where m.agent_key = ${agentKey})
    select p.*, (select count(*) from ips where ips.n between p.begin_num and p.end_num) as miner_count
    from page p order by p.begin_num
  `.execute(db);
  return {
    list: rows.map((r) => toSegment(r, pathOf(byId, Number(r.area_id)).join(' / '))),
    total: Number(totalRows[0]?.n ?? 0),
    curPage: q.page,
    pageSize: q.pageSize,
  };
}

/** "Line 3: …" messages, one per bad line (at most 20, then a count), as the scan-IP import words them. */
export function formatSegmentErrors(errors: SegmentLineError[], t: Translate): string {
  const shown = errors.slice(0, 20).map((e) => {
    const message = t(e.key, e.vars);
    return e.line === 0 ? message : t('validation.scanIpLine', { line: e.line, message });
  });
  if (errors.length > 20) shown.push(t('validation.scanIpMoreLines', { count: errors.length - 20 }));
  return shown.join('\n');
}

/**
 * Adds the segments of the entry text (one per line) to a leaf area, or, with `id`, replaces that one
 * segment (the text must then hold one line). All or nothing: any bad line, or one overlapping a
 * segment of the farm, saves none.
 */
export async function saveSubIps(
  db: DB,
  agentKey: string,
  input: { id?: string; areaId: number; segments: string; remark: string },
  t: Translate,
): Promise<{ saved: number }> {
  const parsed = parseSegmentLines(input.segments);
  if (parsed.errors.length) throw fieldError('segments', formatSegmentErrors(parsed.errors, t));
  if (input.id && parsed.segments.length !== 1) throw fieldError('segments', 'validation.subIpOneLine');
  const done = await db.transaction().execute(async (trx) => {
    await lockFarm(trx, agentKey);
    const area = await trx.selectFrom('sub_areas').select(['id']).where('agent_key', '=', agentKey).where('id', '=', input.areaId).executeTakeFirst();
    if (!area) throw fieldError('areaId', 'validation.subAreaLeafRequired');
    const child = await trx.selectFrom('sub_areas').select('id').where('parent_id', '=', input.areaId).limit(1).executeTakeFirst();
    if (child) throw fieldError('areaId', 'validation.subAreaLeafRequired');
    if (input.id) {
      const own = await trx.selectFrom('sub_area_segments').select('id').where('agent_key', '=', agentKey).where('id', '=', input.id).executeTakeFirst();
      if (!own) throw new AppError('notFound');
    }
    const errors: SegmentLineError[] = [];
    for (const s of parsed.segments) {
      const { rows } = await sql<{ segment: string; area_id: string | number }>`
        select segment, area_id from sub_area_segments
        where agent_key = ${agentKey} and begin_num <= ${s.end} and end_num >= ${s.begin} ${input.id ? sql`and id <> ${input.id}` : sql``}
        order by begin_num limit 1
      `.execute(trx);
      const hit = rows[0];
      if (hit) errors.push({ line: s.line, key: 'validation.subIpOverlap', vars: { segment: hit.segment } });
    }
    if (errors.length) throw fieldError('segments', parsed.segments.length === 1 ? t(errors[0]!.key, errors[0]!.vars) : formatSegmentErrors(errors, t));
    if (input.id) {
      const s = parsed.segments[0]!;
      await trx
        .updateTable('sub_area_segments')
        .set({ area_id: input.areaId, segment: s.segment, begin_num: s.begin, end_num: s.end, remark: input.remark })
        .where('id', '=', input.id)
        .execute();
      return { saved: 1 };
    }
    await trx
      .insertInto('sub_area_segments')
      .values(parsed.segments.map((s) => ({ agent_key: agentKey, area_id: input.areaId, segment: s.segment, begin_num: s.begin, end_num: s.end, remark: input.remark })))
      .execute();
    return { saved: parsed.segments.length };
  });
  noteZoneChange(agentKey);
  return done;
}

/** Deletes segments of the farm; all or nothing (an id of another farm deletes none: 404). */
export async function deleteSubIps(db: DB, agentKey: string, ids: string[]): Promise<number> {
  const unique = [...new Set(ids)];
  const done = await db.transaction().execute(async (trx) => {
    const found = await trx.selectFrom('sub_area_segments').select('id').where('agent_key', '=', agentKey).where('id', 'in', unique).execute();
    if (found.length !== unique.length) throw new AppError('notFound');
    await trx.deleteFrom('sub_area_segments').where('id', 'in', unique).execute();
    return unique.length;
  });
  noteZoneChange(agentKey);
  return done;
}
