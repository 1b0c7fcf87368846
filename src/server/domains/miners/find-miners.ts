/**
 * GET /api/miner/list: one page of a farm's miners, filtered, sorted and paged in the database.
 *
 * One statement per request in the steady state (tests/bench/miner-list.bench.ts, 100,000 miners): it reads the
 * farm's data stamp and the page — the page's ids chosen first (filter + order + limit on plain columns and the
 * list indexes of migration 202611230210), then only those rows expanded — in one snapshot.
 *
 * The total: counting 100,000 rows under a filter costs far more than the page (a full read of the table), and every
 * console on the list page asks the same counts again and again. So a count is kept per (farm, filter) together
 * with the data stamp it was counted at — the farm's highest miners.version (every ingest, mark change or SN edit
 * bumps it) and highest miners tombstone (every deletion leaves one), read in the same statement as the count — and
 * used only while the stamp the page statement reads is the same, i.e. while no miner of the farm has changed since
 * (and at most COUNT_TTL_MS). A result that depends only on the miners' identities — no filter but model, firmware
 * and keyword (IP prefix, SN part), sorted by IP, SN, MAC, make, model, family or firmware — is kept under the farm's
 * identity stamp instead (miner_identity_stamps, migration 202611230330: bumped only when a miner is added, removed
 * or changes identity), so it survives the agent's uploads: the default IP-order view no longer recounts the farm
 * after every cycle, and a search keeps its ids. A short result (≤ LIST_LIMITS.listCap rows: a keyword search, a
 * rare fault) keeps its ordered ids the same way, so its pages are a slice of ids whose rows are read fresh; a search
 * by SN part otherwise reads the whole farm for every page. Filters on other tables (customer, sub-area) and sorts on the clock
 * (rate1Hour, rate24Hour) are not covered by the stamp: they are counted and paged afresh on every request. The stamps
 * themselves are read by miner-stamps.ts.
 *
 * The first pages of a long result kept under the data stamp (a status or fault filter, a sort on hashrate or
 * temperature: made again after every agent cycle) come from its head: the first `head` ordered ids, read once per
 * change of the data (an index walk of about that many rows; concurrent requests share it) and sliced for every page
 * inside it, the total counted as above. Before, every such request walked its own `offset + 50` rows through the
 * sort's index, checking the filter on each.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import type { MinerFilter, MinerListQuery, MinerSortKey } from '@shared/schemas/miner';
import type { DB } from '../../db/kysely';
import { PREPARED } from '../../db/prepared-statements';
import { CLOCK_STATUSES, ROW_COLUMNS, type RawMinerRow, minerOrder, minerWhere, minerRowJson } from './miner-sql';
import { type StampKind, type Stamps, filterKey, hasOffShelf, stampCovers, stampsOf, stampsSql, uploadsOf } from './miner-stamps';

/** At most this long a count (or a kept id list) is reused, even with an unchanged data stamp (a safety net only: the stamp tells every change). */
const COUNT_TTL_MS = 600_000;
const COUNT_CACHE_MAX = 1000;
/** At most this many ids in one kept list (a larger result pages in the database at any depth). */
const DEEP_CAP = 250_000;
/** All kept lists together hold at most this many ids (32 characters each: 16 MB). */
const LIST_IDS_MAX = 500_000;
/** An id in a kept list: its 32 hex digits. */
const ID_CHARS = 32;

/**
 * Limits of what is kept (tests lower them to reach each path with a few hundred miners):
 * - listCap: results up to this many rows keep all their ordered ids (see above);
 * - head: pages inside the first `head` rows of a longer result read a slice of its kept head (see above).
 */
export const LIST_LIMITS = { listCap: 5000, head: 1000 };

interface Counted {
  n: number;
  /** The stamp (of the kind the count is kept under) it was counted at. */
  stamp: string;
  at: number;
  /** The farm's uploads noted before it was counted (miner-stamps.ts, uploadsOf). */
  uploads: number;
}
interface Listed {
  /** The ordered ids, ID_CHARS hex digits each (one string: a 100,000-miner list is 3.2 MB, not 100,000 strings). */
  hex: string;
  n: number;
  /** Whether `hex` holds the whole result; else only its first n ids (a head), and the total is counted. */
  whole: boolean;
  /** Both stamps the ids were read at (the list is valid under its kind's; its length, a count, under the count's kind). */
  stamps: Stamps;
  at: number;
  /** The farm's uploads noted before the ids were read (miner-stamps.ts, uploadsOf). */
  uploads: number;
}
/** Per database (tests run several in one process, with equal stamps over different data). */
interface Caches {
  counts: Map<string, Counted>;
  lists: Map<string, Listed>;
  listedIds: number;
  /** Work in flight, so the concurrent requests after a change wait for one count or one list instead of each making their own. */
  counting: Map<string, Promise<Counted>>;
  listing: Map<string, Promise<Listed | null>>;
}
const cachesByDb = new WeakMap<DB, Caches>();
function cachesOf(db: DB): Caches {
  let c = cachesByDb.get(db);
  if (!c) cachesByDb.set(db, (c = { counts: new Map(), lists: new Map(), listedIds: 0, counting: new Map(), listing: new Map() }));
  return c;
}

export async function countMiners(db: DB, agentKey: string, filter: MinerFilter, offShelf?: boolean): Promise<number> {
  const off = offShelf ?? (await hasOffShelf(db, agentKey));
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from miners m where ${minerWhere(agentKey, filter, off)}`.execute(db);
  return rows[0]?.n ?? 0;
}

const CLOCK_SORTS: ReadonlySet<MinerSortKey> = new Set<MinerSortKey>(['rate1Hour', 'rate24Hour']);
/** Filters on identity columns only (the columns whose change bumps the identity stamp: migration 202611230330). */
const IDENTITY_FILTERS: ReadonlySet<string> = new Set<keyof MinerFilter>(['model', 'firmware', 'keyword']);
/** Sorts on identity columns only (the IP order, the default, too). */
const IDENTITY_SORTS: ReadonlySet<MinerSortKey> = new Set<MinerSortKey>(['ip', 'sn', 'mac', 'make', 'model', 'family', 'firmwareVersion', 'compileTime']);
/** The stamp a count of this filter is kept under. */
const countKind = (filter: MinerFilter): StampKind =>
  Object.entries(filter).every(([k, v]) => v === undefined || IDENTITY_FILTERS.has(k)) ? 'identity' : 'data';
/** The stamp an ordered id list of this filter and sort is kept under. */
const listKind = (filter: MinerFilter, sort: MinerSortKey | undefined): StampKind =>
  countKind(filter) === 'identity' && (sort === undefined || IDENTITY_SORTS.has(sort)) ? 'identity' : 'data';

function rememberCount(c: Caches, key: string, value: Counted): void {
  c.counts.delete(key);
  if (c.counts.size >= COUNT_CACHE_MAX) c.counts.delete(c.counts.keys().next().value!);
  c.counts.set(key, value);
}

function rememberList(c: Caches, key: string, entry: Listed): void {
  const old = c.lists.get(key);
  if (old) {
    c.listedIds -= old.n;
    c.lists.delete(key);
  }
  while (c.lists.size > 0 && c.listedIds + entry.n > LIST_IDS_MAX) {
    const [oldestKey, oldest] = c.lists.entries().next().value!;
    c.listedIds -= oldest.n;
    c.lists.delete(oldestKey);
  }
  c.lists.set(key, entry);
  c.listedIds += entry.n;
}

const fresh = (e: Counted | undefined, stamp: string, now: number) => e !== undefined && e.stamp === stamp && now - e.at < COUNT_TTL_MS;

/** The ids of rows [offset, offset + size) of a kept list, as a uuid[] parameter. */
function slice(l: Listed, offset: number, size: number): RawBuilder<unknown> {
  const ids: string[] = [];
  for (let i = offset; i < Math.min(l.n, offset + size); i++) ids.push(l.hex.slice(i * ID_CHARS, (i + 1) * ID_CHARS));
  return sql`${ids}::uuid[]`;
}

/**
 * The stamps and the rows of the page whose ids `ids` gives (an ordered uuid[] expression), in one statement (one
 * snapshot): a farm without a matching row still answers its stamps.
 */
async function stampsAndRows(db: DB, agentKey: string, ids: RawBuilder<unknown>): Promise<{ stamps: Stamps; rows: string[] }> {
  const { rows } = await sql<RawMinerRow & { stamp: string; identity_stamp: string; n: number | null }>`${sql.raw(PREPARED)}
    select s.stamp, s.identity_stamp, r.*
    from (select ${stampsSql(agentKey)}) s
    left join lateral (
      select p.n, ${ROW_COLUMNS}
      from unnest(${ids}) with ordinality p(id, n)
      join miners m on m.id = p.id
    ) r on true
    order by r.n
  `.execute(db);
  return { stamps: stampsOf(rows[0]), rows: rows.filter((r) => r.n !== null).map(minerRowJson) };
}

/** A page of list rows, each row as its JSON text (minerRowJson: MinerRow's keys and values). */
export type MinerRowsPage = Page<string>;

/** The answer envelope of a page as JSON text: { code, msg, data: Page<MinerRow> } with the rows' texts in place. */
export function minerPageJson(page: MinerRowsPage): string {
  return `{"code":0,"msg":"success","data":{"list":[${page.list.join(',')}],"total":${page.total},"curPage":${page.curPage},"pageSize":${page.pageSize}}}`;
}

export async function findMiners(db: DB, q: MinerListQuery): Promise<MinerRowsPage> {
  const { agentKey, page, pageSize, sort, order, ...filter } = q;
  const offShelf = await hasOffShelf(db, agentKey);
  const where = minerWhere(agentKey, filter, offShelf);
  const orderBy = minerOrder(sort, order);
  const offset = (page - 1) * pageSize;
  // A result that moves on with the clock (8-hour qualified, offline over 24 hours) is counted and paged afresh: a farm
  // whose agent is down uploads nothing, so no stamp would tell its kept count that a miner passed the 24 hours.
  const covered = stampCovers(filter) && !(filter.status && CLOCK_STATUSES.has(filter.status));
  const key = filterKey(agentKey, filter, offShelf);
  const listKey = `${key}\u0000${sort ?? ''}\u0000${order ?? ''}`;
  const canList = covered && !(sort && CLOCK_SORTS.has(sort));
  const counts = countKind(filter);
  const lists = listKind(filter, sort);
  const caches = cachesOf(db);
  const { listCap, head } = LIST_LIMITS;
  const inHead = offset + pageSize <= head;
  const uploads = uploadsOf(db, agentKey);

  const pageOf = (got: { rows: string[] }, total: number): MinerRowsPage => ({ list: got.rows, total, curPage: page, pageSize });
  /** The result's total at the stamps a page was read at: kept, or counted (one count per change of the data, shared). */
  const totalAt = async (stamps: Stamps): Promise<number> => {
    if (!covered) return countMiners(db, agentKey, filter, offShelf);
    const stamp = stamps[counts];
    const again = caches.counts.get(key);
    if (fresh(again, stamp, Date.now())) return again!.n; // counted at this very stamp
    const c = await counting();
    if (c.stamp !== stamp) return countMiners(db, agentKey, filter, offShelf); // the data changed meanwhile: count for this page
    rememberCount(caches, key, c);
    return c.n;
  };
  /** The count of the result at the farm's stamps now: one at a time, concurrent requests share it. */
  const counting = (): Promise<Counted> => {
    let c = caches.counting.get(key);
    if (!c) {
      c = countWithStamp(db, agentKey, where, counts).finally(() => caches.counting.delete(key));
      caches.counting.set(key, c);
    }
    return c;
  };
  /**
   * Starts the count before the ids are read, when the kept one is known stale (an upload since): the two statements
   * then run side by side on PostgreSQL instead of one after the other (totalAt takes the count up).
   */
  const countAhead = () => {
    if (!covered || counts !== 'data' || caches.counts.get(key)?.uploads === uploads) return;
    counting().catch(() => undefined); // a failure surfaces where totalAt awaits it
  };
  /** The page from kept ids: a slice of them, valid if the stamp read with its rows is still the one they were read at. */
  const fromKept = async (kept: Listed): Promise<MinerRowsPage | null> => {
    const got = await stampsAndRows(db, agentKey, slice(kept, offset, pageSize));
    if (got.stamps[lists] !== kept.stamps[lists]) return null;
    return pageOf(got, kept.whole ? kept.n : await totalAt(got.stamps));
  };

  const listed = canList ? caches.lists.get(listKey) : undefined;
  // A list under the data stamp read before the farm's latest upload is stale: not worth a page read to find out.
  const outdated = listed !== undefined && lists === 'data' && listed.uploads !== uploads;
  if (listed && !outdated && Date.now() - listed.at < COUNT_TTL_MS && (listed.whole || offset + pageSize <= listed.n)) {
    const done = await fromKept(listed);
    if (done) return done;
  }
  const counted = covered ? caches.counts.get(key) : undefined;

  // Read the result's ordered ids first when it is probably short (short when last counted, or a keyword search not
  // counted yet: one pass over the farm answers the total and every page; a search by SN part cannot use an index, so
  // it reads every row anyway), or when the page is deep (skipping thousands of rows in the database for every page
  // costs more than listing the ids once per change of the data), or at any depth when the list is kept under the
  // identity stamp (read once per change of the farm's miners, not once per agent cycle). Else a page inside the
  // head reads the kept head.
  const short = counted === undefined ? filter.keyword !== undefined : counted.n <= listCap;
  const keepIds = !inHead || lists === 'identity';
  if (canList && (short || (keepIds && (counted === undefined || counted.n <= DEEP_CAP)))) {
    const kept = await listIds(db, caches, agentKey, where, orderBy, listKey, short && inHead ? listCap : DEEP_CAP, false);
    if (kept) {
      rememberCount(caches, key, { n: kept.n, stamp: kept.stamps[counts], at: kept.at, uploads: kept.uploads });
      const done = await fromKept(kept);
      if (done) return done;
    }
  } else if (canList && inHead) {
    countAhead(); // a head's total is counted apart
    const kept = await listIds(db, caches, agentKey, where, orderBy, listKey, head, true);
    const done = kept && (await fromKept(kept));
    if (done) return done;
  }

  countAhead();
  const got = await stampsAndRows(db, agentKey, sql`array(select m.id from miners m where ${where} order by ${orderBy} limit ${pageSize} offset ${offset})`);
  return pageOf(got, await totalAt(got.stamps));
}

async function countWithStamp(db: DB, agentKey: string, where: RawBuilder<unknown>, kind: StampKind): Promise<Counted> {
  const at = Date.now();
  const uploads = uploadsOf(db, agentKey);
  const { rows } = await sql<{ stamp: string; identity_stamp: string; n: number }>`${sql.raw(PREPARED)}
    select ${stampsSql(agentKey)}, (select count(*)::int from miners m where ${where}) as n
  `.execute(db);
  return { n: rows[0]?.n ?? 0, stamp: stampsOf(rows[0])[kind], at, uploads };
}

/**
 * The ordered ids of a result with the stamps they were read at, kept; null when it has more than `cap` rows, unless
 * `headOnly`: then its first `cap` ids are kept (a head). One read per (result, order, cap) at a time: concurrent
 * requests share it.
 */
function listIds(db: DB, caches: Caches, agentKey: string, where: RawBuilder<unknown>, orderBy: RawBuilder<unknown>, listKey: string, cap: number, headOnly: boolean): Promise<Listed | null> {
  const pendingKey = `${listKey}\u0000${cap}\u0000${headOnly}`;
  let pending = caches.listing.get(pendingKey);
  if (!pending) {
    pending = readIds(db, caches, agentKey, where, orderBy, listKey, cap, headOnly).finally(() => caches.listing.delete(pendingKey));
    caches.listing.set(pendingKey, pending);
  }
  return pending;
}

async function readIds(db: DB, caches: Caches, agentKey: string, where: RawBuilder<unknown>, orderBy: RawBuilder<unknown>, listKey: string, cap: number, headOnly: boolean): Promise<Listed | null> {
  const at = Date.now();
  const uploads = uploadsOf(db, agentKey);
  // The ids' hex digits joined in result order (array(subquery) keeps the subquery's order).
  const { rows } = await sql<{ stamp: string; identity_stamp: string; hex: string }>`${sql.raw(PREPARED)}
    select ${stampsSql(agentKey)},
           array_to_string(array(select replace(m.id::text, '-', '') from miners m where ${where} order by ${orderBy} limit ${cap + 1}), '') as hex
  `.execute(db);
  const r = rows[0];
  if (!r) return null;
  const n = r.hex.length / ID_CHARS;
  if (n > cap && !headOnly) return null;
  const entry: Listed = n > cap ? { hex: r.hex.slice(0, cap * ID_CHARS), n: cap, whole: false, stamps: stampsOf(r), at, uploads } : { hex: r.hex, n, whole: true, stamps: stampsOf(r), at, uploads };
  rememberList(caches, listKey, entry);
  return entry;
}
