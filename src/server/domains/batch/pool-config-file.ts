/**
 * The farm's pool configuration file (spec 3 §5, §7 getuploadPoolConfigFile): hosting farms point each customer's
 * miners at that customer's pools, which one batchSetPool (one pool set for a whole selection) cannot do.
 * - download: an .xlsx of the miners in IP order with the pools each reports now (only those JSON fields are read,
 *   page by page), or the header and a sample row when the farm has none;
 * - upload: the edited file (.xlsx, .xls, .csv or .txt; at most 10,000 rows, the header row skipped) is checked row by
 *   row — change / same / unknown / invalid — and the changes are kept as a plan, grouped by pool set, for one hour;
 * - apply: with a verification code, once, by the uploader, each group becomes one batchSetPool batch through
 *   runMinerBatch (batch log, capability checks and the agent as for any batch). A user whose pool changes need
 *   approval is refused: the approval flow (batchSetPool) is the way for them.
 */
import { type RawBuilder, sql } from 'kysely';
import Papa from 'papaparse';
import writeXlsxFile from 'write-excel-file/node';
import { poolUrlProblem } from '@shared/pool-sites';
import { type BatchBody, type BatchFailure, type BatchFilter, isValidPoolUrl } from '@shared/schemas/batch-operations';
import {
  POOL_CONFIG_COLUMNS,
  POOL_CONFIG_INVALID_LISTED,
  POOL_CONFIG_MAX_ROWS,
  POOL_CONFIG_SAMPLE_ROW,
  POOL_CONFIG_TTL_SEC,
  type PoolConfigApplyResult,
  type PoolConfigColumn,
  type PoolConfigInvalidRow,
  type PoolConfigPool,
  type PoolConfigRowStatus,
  type PoolConfigUploadResult,
} from '@shared/schemas/pool-config-file';
import { type Locale, isIPv4 } from '@shared/validation';
import { type DB, inTransaction } from '../../db/kysely';
import type { PoolConfigPlanGroup } from '../../db/pool-config-schema';
import type { UserRecord } from '../../db/schema';
import { AppError } from '../../errors';
import { translate } from '../../i18n';
import { approverFor } from '../approvals/pool-approvals';
import { IP_ORDER, minerWhere } from '../miners/miner-sql';
import { hasOffShelf } from '../miners/miner-stamps';
import { runMinerBatch } from './run-batch';
import { consumeVerificationCode } from './verification-codes';
import { fileExtension, readUpload, uploadedFile } from './ip-lists';

const PAGE = 2000;
const LOOKUP_CHUNK = 1000;
const COLS = POOL_CONFIG_COLUMNS.length;

/** A miner's row of the file: IP, SN, model and its reported pools (at most 3). */
export interface MinerPoolsRow {
  ip: string;
  sn: string;
  model: string;
  pools: PoolConfigPool[];
}

interface RawPoolsRow {
  ip: string;
  sn: string;
  model: string;
  u1: string;
  w1: string;
  u2: string;
  w2: string;
  u3: string;
  w3: string;
}

/** Only the pools' url / user of the latest snapshot, never the whole reading. */
const poolField = (i: number, f: 'url' | 'user') => sql`coalesce(m.snapshot -> 'pools' -> ${sql.lit(i)} ->> ${sql.lit(f)}, '')`;
const POOL_COLUMNS = sql`m.ip, m.sn, m.model, ${poolField(0, 'url')} as u1, ${poolField(0, 'user')} as w1, ${poolField(1, 'url')} as u2,
  ${poolField(1, 'user')} as w2, ${poolField(2, 'url')} as u3, ${poolField(2, 'user')} as w3`;

function toPoolsRow(r: RawPoolsRow): MinerPoolsRow {
  const pools = [
    { url: r.u1, user: r.w1 },
    { url: r.u2, user: r.w2 },
    { url: r.u3, user: r.w3 },
  ].filter((p) => p.url !== '' || p.user !== '');
  return { ip: r.ip, sn: r.sn, model: r.model, pools };
}

/** Which miners a download covers: the whole farm, the addresses given, or those matching the list's filters less the excluded. */
export type PoolConfigScope = { ips?: string[]; filter?: BatchFilter; exclude?: string[] };

/** The farm's miners of the scope, in IP order with their current pools, read PAGE rows at a time. */
export async function readMinerPools(db: DB, agentKey: string, scope: PoolConfigScope = {}): Promise<MinerPoolsRow[]> {
  let where: RawBuilder<unknown> = sql`m.agent_key = ${agentKey}`;
  if (scope.ips) where = sql`${where} and m.ip = any(${scope.ips}::text[])`;
  else if (scope.filter) {
    // The miners the list shows for the filter (on shelf), as a batch on "all matching" takes them.
    where = minerWhere(agentKey, scope.filter, await hasOffShelf(db, agentKey));
    if (scope.exclude?.length) where = sql`${where} and m.ip <> all(${scope.exclude}::text[])`;
  }
  const out: MinerPoolsRow[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await sql<RawPoolsRow>`select ${POOL_COLUMNS} from miners m where ${where}
      order by ${IP_ORDER} limit ${PAGE} offset ${offset}`.execute(db);
    out.push(...rows.map(toPoolsRow));
    if (rows.length < PAGE) return out;
  }
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** attachment file name: pool-config-<farm>-<YYYYMMDD-HHmm>.xlsx (UTC). */
export function poolConfigFileName(agentKey: string, now = new Date()): string {
  const farm = agentKey.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || 'farm';
  const stamp = `${now.getUTCFullYear()}${twoDigits(now.getUTCMonth() + 1)}${twoDigits(now.getUTCDate())}-${twoDigits(now.getUTCHours())}${twoDigits(now.getUTCMinutes())}`;
  return `pool-config-${farm}-${stamp}.xlsx`;
}

/** The .xlsx: a header in the request's language, one row per miner (or the sample row when there is none). */
export async function buildPoolConfigXlsx(locale: Locale, miners: MinerPoolsRow[]): Promise<Buffer> {
  const header = POOL_CONFIG_COLUMNS.map((c) => translate(locale, `poolConfigFile.columns.${c}`));
  const rows =
    miners.length === 0
      ? [POOL_CONFIG_COLUMNS.map((c) => POOL_CONFIG_SAMPLE_ROW[c])]
      : miners.map((m) => [m.ip, m.sn, m.model, ...[0, 1, 2].flatMap((i) => [m.pools[i]?.url ?? '', m.pools[i]?.user ?? ''])]);
  const widths = [16, 20, 18, 40, 28, 40, 28, 40, 28].map((width) => ({ width }));
  return writeXlsxFile([header, ...rows], { sheet: translate(locale, 'poolConfigFile.sheet').slice(0, 31), columns: widths }).toBuffer();
}

// ─── Upload ───

interface FileRow {
  line: number;
  cells: string[];
}

const padCells = (cells: string[]) => Array.from({ length: COLS }, (_, i) => cells[i] ?? '');

/** The file's rows, COLS cells each: a sheet's as read, a text file's as CSV (comma, tab, semicolon or bar). */
async function readRows(buf: Buffer, ext: string | null): Promise<FileRow[]> {
  const content = await readUpload(buf, ext, COLS, 'unsupportedPoolConfigFormat');
  if ('rows' in content) return content.rows.map((r) => ({ line: r.line, cells: padCells(r.cells) }));
  const parsed = Papa.parse<string[]>(content.text.replace(/^\uFEFF/, ''), { skipEmptyLines: false, delimitersToGuess: [',', '\t', ';', '|'] });
  return parsed.data.map((cells, i) => ({ line: i + 1, cells: padCells(cells.slice(0, COLS).map((c) => String(c ?? '').trim())) }));
}

const ALLOWED_EXT = new Set(['xlsx', 'xls', 'csv', 'txt']);

/** The rows of a multipart upload (fields file and, optionally, fileName), header row dropped; at most 10,000. */
export async function parseUploadedPoolConfig(body: unknown): Promise<FileRow[]> {
  const { file, name } = uploadedFile(body);
  const ext = fileExtension(name);
  if (ext !== null && !ALLOWED_EXT.has(ext)) throw new AppError('unsupportedPoolConfigFormat');
  const rows = (await readRows(file, ext)).filter((r) => r.cells.some((c) => c !== ''));
  // The header (or any title row): a first row whose IP cell is not an address.
  if (rows[0] && !isIPv4(rows[0].cells[0] ?? '')) rows.shift();
  if (rows.length > POOL_CONFIG_MAX_ROWS) throw new AppError('tooManyRows', { count: rows.length, max: POOL_CONFIG_MAX_ROWS });
  return rows;
}

interface CheckedRow {
  line: number;
  ip: string;
  pools: PoolConfigPool[];
}

/** The first problem of a row: its column and `errors:` key; null when well formed. */
function rowProblem(cells: string[], seen: Set<string>): { field: PoolConfigColumn; key: string } | null {
  const ip = cells[0] ?? '';
  if (!isIPv4(ip)) return { field: 'ip', key: 'validation.ipAddress' };
  if (seen.has(ip)) return { field: 'ip', key: 'poolConfigFile.duplicateIp' };
  for (const i of [1, 2, 3] as const) {
    const urlField = `pool${i}Url` as PoolConfigColumn;
    const userField = `pool${i}User` as PoolConfigColumn;
    const url = cells[POOL_CONFIG_COLUMNS.indexOf(urlField)] ?? '';
    const user = cells[POOL_CONFIG_COLUMNS.indexOf(userField)] ?? '';
    if (i === 1 && url === '') return { field: urlField, key: 'validation.poolUrlRequired' };
    if (i === 1 && user === '') return { field: userField, key: 'validation.poolUser' };
    if (url === '' && user !== '') return { field: urlField, key: 'poolConfigFile.urlRequired' };
    if (url !== '') {
      const problem = poolUrlProblem(url) ?? (url.length > 300 || !isValidPoolUrl(url) ? 'validation.poolUrlFormat' : null);
      if (problem) return { field: urlField, key: problem };
      if (user === '') return { field: userField, key: 'poolConfigFile.workerRequired' };
      if (user.length > 200) return { field: userField, key: 'validation.invalid' };
    }
  }
  return null;
}

function filePools(cells: string[]): PoolConfigPool[] {
  return [1, 2, 3].flatMap((i) => {
    const url = cells[POOL_CONFIG_COLUMNS.indexOf(`pool${i}Url` as PoolConfigColumn)] ?? '';
    const user = cells[POOL_CONFIG_COLUMNS.indexOf(`pool${i}User` as PoolConfigColumn)] ?? '';
    return url === '' ? [] : [{ url, user }];
  });
}

const poolsKey = (pools: PoolConfigPool[]) => JSON.stringify(pools.map((p) => [p.url.trim(), p.user.trim()]));

/** Checks the rows against the farm's miners and keeps the changes as a plan of this user for an hour. */
export async function checkPoolConfig(db: DB, locale: Locale, agentKey: string, userId: string, rows: FileRow[]): Promise<PoolConfigUploadResult> {
  const counts: Record<PoolConfigRowStatus, number> = { change: 0, same: 0, unknown: 0, invalid: 0 };
  const invalid: PoolConfigInvalidRow[] = [];
  const valid: CheckedRow[] = [];
  const seen = new Set<string>();
  for (const r of rows) {
    const problem = rowProblem(r.cells, seen);
    const ip = r.cells[0] ?? '';
    if (problem) {
      counts.invalid += 1;
      if (invalid.length < POOL_CONFIG_INVALID_LISTED) invalid.push({ line: r.line, ip: ip.slice(0, 100), field: problem.field, message: translate(locale, problem.key) });
      continue;
    }
    seen.add(ip);
    valid.push({ line: r.line, ip, pools: filePools(r.cells) });
  }

  const current = new Map<string, MinerPoolsRow>();
  for (let i = 0; i < valid.length; i += LOOKUP_CHUNK) {
    for (const m of await readMinerPools(db, agentKey, { ips: valid.slice(i, i + LOOKUP_CHUNK).map((v) => v.ip) })) current.set(m.ip, m);
  }

  const groups = new Map<string, PoolConfigPlanGroup>();
  for (const v of valid) {
    const miner = current.get(v.ip);
    if (!miner) {
      counts.unknown += 1;
      continue;
    }
    const key = poolsKey(v.pools);
    if (key === poolsKey(miner.pools)) {
      counts.same += 1;
      continue;
    }
    counts.change += 1;
    const g = groups.get(key) ?? { pools: v.pools, ips: [] };
    g.ips.push(v.ip);
    groups.set(key, g);
  }
  const planGroups = [...groups.values()].sort((a, b) => b.ips.length - a.ips.length);

  const expiresAt = new Date(Date.now() + POOL_CONFIG_TTL_SEC * 1000);
  const row = await db
    .insertInto('pool_config_plans')
    .values({ agent_key: agentKey, user_id: userId, groups: JSON.stringify(planGroups), counts: JSON.stringify(counts), expires_at: expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    fileId: row.id,
    counts,
    groups: planGroups.map((g) => ({ pools: g.pools, count: g.ips.length })),
    invalid,
    expiresAt: expiresAt.toISOString(),
  };
}

// ─── Apply ───

function setPoolBody(agentKey: string, g: PoolConfigPlanGroup): BatchBody<'batchSetPool'> {
  const [p1, p2, p3] = g.pools;
  return {
    agentKey,
    ips: g.ips,
    pool1Url: p1?.url ?? '',
    pool1User: p1?.user ?? '',
    ...(p2 ? { pool2Url: p2.url, pool2User: p2.user } : {}),
    ...(p3 ? { pool3Url: p3.url, pool3User: p3.user } : {}),
    workerSuffix: 'none',
  };
}

/**
 * Applies a checked plan: refuses an expired or unknown plan, another user's, an applied one, a user needing
 * approval, an empty plan — before the code is consumed; then the code (once), the plan claimed in one conditional
 * UPDATE (a second apply finds it applied), and one batchSetPool batch per pool set, the claim and the batches in one
 * transaction.
 */
export async function applyPoolConfig(db: DB, agentKey: string, user: UserRecord, fileId: string, code: string | undefined): Promise<PoolConfigApplyResult> {
  const plan = await db
    .selectFrom('pool_config_plans')
    .select(['id', 'user_id', 'groups', 'applied_at'])
    .where('id', '=', fileId)
    .where('agent_key', '=', agentKey)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (!plan) throw new AppError('poolConfigExpired');
  if (plan.user_id !== user.id) throw new AppError('poolConfigNotYours');
  if (plan.applied_at) throw new AppError('poolConfigApplied');
  if (await approverFor(db, agentKey, user)) throw new AppError('poolConfigNeedsApproval');
  if (plan.groups.length === 0) throw new AppError('poolConfigNothingToApply');

  await consumeVerificationCode(db, user.id, code);
  // The claim and every group's batch in one transaction: a failure part way (the database, not a refused miner) leaves
  // the plan unapplied with no batch queued, and the user can apply it again with a new code.
  return inTransaction(db, async (trx) => {
    const claimed = await trx
      .updateTable('pool_config_plans')
      .set({ applied_at: new Date() })
      .where('id', '=', plan.id)
      .where('applied_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!claimed) throw new AppError('poolConfigApplied');

    const batches: PoolConfigApplyResult['batches'] = [];
    const refused: BatchFailure[] = [];
    for (const g of plan.groups) {
      const r = await runMinerBatch(trx, { op: 'batchSetPool', agentKey, userId: user.id, verified: true, body: setPoolBody(agentKey, g) });
      batches.push({ taskId: r.taskId, ips: r.accepted.length, pool1Url: g.pools[0]?.url ?? '' });
      refused.push(...r.refused);
    }
    await trx
      .updateTable('pool_config_plans')
      .set({ task_ids: JSON.stringify(batches.map((b) => b.taskId)) })
      .where('id', '=', plan.id)
      .execute();
    return { batches, refused };
  });
}
