/**
 * POST /api/minerv2/uploadIpList: a .txt (one IP per line) or an Excel file, .xlsx or legacy .xls (column 1 IP, 2 SN,
 * 3 customer; the first row may be a header or template row), becomes a stored list usable as a batch target for an
 * hour. The format is told by the optional file name and confirmed by the content: an .xlsx is a zip (PK…), an .xls a
 * compound file (xls-reader.ts), a text file is UTF-8 without NUL bytes; anything else is an unsupported format.
 */
import { sql } from 'kysely';
import { readSheet } from 'read-excel-file/node';
import { BATCH_MAX_TARGETS, IP_LIST_TTL_SEC, type IpListUploadResult } from '@shared/schemas/batch-operations';
import { isIPv4 } from '@shared/validation';
import type { DB } from '../../db/kysely';
import { AppError, fieldError } from '../../errors';
import type { ErrorName } from '@shared/errors';
import { XlsFormatError, isCompoundFile, readXlsRows } from './xls-reader';

export interface IpListEntry {
  ip: string;
  sn?: string;
  customer?: string;
}

export interface ParsedIpList {
  entries: IpListEntry[];
  invalid: { line: number; value: string }[];
}

const MAX_INVALID_LISTED = 100;
const isZip = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  return String(v).trim();
}

function collect(rows: { line: number; cells: string[] }[], headerAllowed: boolean): ParsedIpList {
  const nonEmpty = rows.filter((r) => r.cells.some((c) => c !== ''));
  if (nonEmpty.length > BATCH_MAX_TARGETS + (headerAllowed ? 1 : 0)) throw new AppError('tooManyRows', { count: nonEmpty.length, max: BATCH_MAX_TARGETS });
  const entries = new Map<string, IpListEntry>();
  const invalid: ParsedIpList['invalid'] = [];
  let invalidCount = 0;
  nonEmpty.forEach((r, i) => {
    const ip = r.cells[0] ?? '';
    if (!isIPv4(ip)) {
      if (i === 0 && headerAllowed) return; // header / template row
      invalidCount += 1;
      if (invalid.length < MAX_INVALID_LISTED) invalid.push({ line: r.line, value: r.cells.filter((c) => c !== '').join(' ').slice(0, 100) });
      return;
    }
    if (entries.has(ip)) return;
    const sn = r.cells[1];
    const customer = r.cells[2];
    entries.set(ip, { ip, ...(sn ? { sn } : {}), ...(customer ? { customer } : {}) });
  });
  if (entries.size > BATCH_MAX_TARGETS) throw new AppError('tooManyRows', { count: entries.size + invalidCount, max: BATCH_MAX_TARGETS });
  return { entries: [...entries.values()], invalid };
}

export function parseTextIpList(text: string): ParsedIpList {
  const rows = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\r|\n/)
    .map((l, i) => ({ line: i + 1, cells: l.trim() === '' ? [] : l.trim().split(/\s*[,;\t]\s*|\s+/) }));
  return collect(rows, false);
}

/** The extension of an upload's file name, lower case; null when it has none. */
export function fileExtension(name: string | undefined): string | null {
  return name && name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : null;
}

/** A spreadsheet's first sheet (line numbers from 1, at most `columns` cells a row, as text), or a text file's text. */
export type UploadContent = { rows: { line: number; cells: string[] }[] } | { text: string };

/**
 * What an upload holds, told by its content and checked against its extension (`ext`, null when unnamed): an .xlsx (a
 * zip) or a legacy .xls (a compound file, xls-reader.ts) as rows, else UTF-8 text without NUL bytes; anything else, or
 * content that does not match the extension, is refused with `unsupported` (the caller's message: the formats it
 * takes). Shared by the IP-list and pool-config uploads.
 */
export async function readUpload(buf: Buffer, ext: string | null, columns: number, unsupported: ErrorName = 'unsupportedFileFormat'): Promise<UploadContent> {
  if (isZip(buf)) {
    if (ext !== null && ext !== 'xlsx') throw new AppError(unsupported);
    let data: unknown[][];
    try {
      data = (await readSheet(buf)) as unknown[][];
    } catch {
      throw new AppError(unsupported);
    }
    return { rows: data.map((row, i) => ({ line: i + 1, cells: row.slice(0, columns).map(cellText) })) };
  }
  if (isCompoundFile(buf)) {
    if (ext !== null && ext !== 'xls') throw new AppError(unsupported);
    let rows: Map<number, string[]>;
    try {
      rows = readXlsRows(buf, columns);
    } catch (err) {
      if (err instanceof XlsFormatError) throw new AppError(unsupported);
      throw err;
    }
    return { rows: [...rows.entries()].sort(([a], [b]) => a - b).map(([row, cells]) => ({ line: row + 1, cells })) };
  }
  if (ext === 'xlsx' || ext === 'xls' || buf.includes(0)) throw new AppError(unsupported);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf) };
  } catch {
    throw new AppError(unsupported);
  }
}

/** Reads an upload by its name (when given) and content: a sheet's first row may be a header or template row. */
export async function parseIpListFile(buf: Buffer, fileName: string | undefined): Promise<ParsedIpList> {
  const ext = fileExtension(fileName);
  if (ext !== null && ext !== 'txt' && ext !== 'xlsx' && ext !== 'xls') throw new AppError('unsupportedFileFormat');
  const content = await readUpload(buf, ext, 3);
  return 'rows' in content ? collect(content.rows, true) : parseTextIpList(content.text);
}

/**
 * The file of a multipart upload (fields file and, optionally, fileName, which tells the format with the content):
 * no file → 400 on the field; a text field where the file should be → unsupported file format.
 */
export function uploadedFile(body: unknown): { file: Buffer; name: string | undefined } {
  const b = (body ?? {}) as Record<string, unknown>;
  const file = b.file;
  if (!Buffer.isBuffer(file)) {
    if (typeof file === 'string') throw new AppError('unsupportedFileFormat');
    throw fieldError('file', 'validation.required');
  }
  return { file, name: typeof b.fileName === 'string' && b.fileName.length <= 300 ? b.fileName : undefined };
}

/** The list of a multipart upload (see uploadedFile). */
export async function parseUploadedIpList(body: unknown): Promise<ParsedIpList> {
  const { file, name } = uploadedFile(body);
  return parseIpListFile(file, name);
}

export async function storeIpList(db: DB, agentKey: string, userId: string, parsed: ParsedIpList): Promise<IpListUploadResult> {
  if (parsed.entries.length === 0) throw new AppError('ipListEmpty');
  const ips = parsed.entries.map((e) => e.ip);
  const { rows } = await sql<{ ip: string }>`select ip from miners where agent_key = ${agentKey} and ip = any(${ips}::text[])`.execute(db);
  const known = new Set(rows.map((r) => r.ip));
  const expiresAt = new Date(Date.now() + IP_LIST_TTL_SEC * 1000);
  await db.deleteFrom('ip_lists').where('expires_at', '<', new Date()).execute();
  const row = await db
    .insertInto('ip_lists')
    .values({ agent_key: agentKey, user_id: userId, entries: JSON.stringify(parsed.entries), entry_count: parsed.entries.length, expires_at: expiresAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    fileId: row.id,
    count: parsed.entries.length,
    matched: known.size,
    unmatched: ips.filter((ip) => !known.has(ip)),
    invalid: parsed.invalid,
    expiresAt: expiresAt.toISOString(),
  };
}

/** IPs of a stored, unexpired list of this farm (and user). */
export async function loadIpList(db: DB, agentKey: string, userId: string, id: string): Promise<string[]> {
  const row = await db
    .selectFrom('ip_lists')
    .select(['entries'])
    .where('id', '=', id)
    .where('agent_key', '=', agentKey)
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  if (!row) throw new AppError('ipListExpired');
  return row.entries.map((e) => e.ip);
}
