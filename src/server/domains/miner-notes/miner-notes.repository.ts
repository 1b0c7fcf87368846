/**
 * Technician writes from the offline outbox: notes / fault marks (append-only, keyed by the client's UUIDv7)
 * and a change of a miner's customer checked against the marks version. Both are safe to replay with or
 * without an Idempotency-Key: a note already stored is compared with the request (same → same answer,
 * different → 422); a customer change whose wanted customer is already in place answers the current version.
 */
import { sql } from 'kysely';
import type { Page } from '@shared/schemas/common';
import type { MinerAccidentType } from '@shared/miner-labels';
import type { ChangeMinerCustomerResult, MinerCustomerConflict, MinerNote, MinerNoteKind } from '@shared/schemas/miner-notes';
import type { DB } from '../../db/kysely';
import { AppError, fieldError } from '../../errors';

export interface AddNoteInput {
  agentKey: string;
  id: string;
  ip: string;
  kind: MinerNoteKind;
  faultType?: MinerAccidentType | undefined;
  text: string;
  createdAt: string;
}

export interface ChangeCustomerInput {
  agentKey: string;
  ip: string;
  customer: string | null;
  baseVersion: string;
}

interface NoteRow {
  id: string;
  agent_key: string;
  ip: string;
  kind: 'note' | 'fault';
  fault_type: string | null;
  text: string;
  created_at: Date;
  received_at: Date;
  author_name: string | null;
}

function toNote(r: NoteRow): MinerNote {
  return {
    id: r.id,
    ip: r.ip,
    kind: r.kind,
    faultType: (r.fault_type as MinerAccidentType | null) ?? null,
    text: r.text,
    authorName: r.author_name,
    createdAt: new Date(r.created_at).toISOString(),
    receivedAt: new Date(r.received_at).toISOString(),
  };
}

function findNote(db: DB, id: string): Promise<NoteRow | undefined> {
  return db
    .selectFrom('miner_notes as n')
    .leftJoin('users as u', 'u.id', 'n.author_id')
    .select(['n.id', 'n.agent_key', 'n.ip', 'n.kind', 'n.fault_type', 'n.text', 'n.created_at', 'n.received_at', 'u.user_name as author_name'])
    .where('n.id', '=', id)
    .executeTakeFirst();
}

function sameNote(row: NoteRow, b: AddNoteInput): boolean {
  return (
    row.agent_key === b.agentKey &&
    row.ip === b.ip &&
    row.kind === b.kind &&
    (row.fault_type ?? null) === (b.faultType ?? null) &&
    row.text === b.text &&
    new Date(row.created_at).getTime() === new Date(b.createdAt).getTime()
  );
}

async function minerExists(db: DB, agentKey: string, ip: string): Promise<boolean> {
  const m = await db.selectFrom('miners').select('id').where('agent_key', '=', agentKey).where('ip', '=', ip).executeTakeFirst();
  return !!m;
}

/**
 * Stores a note or fault (a fault also sets the miner's accident mark, as batchAccident does). Replays answer
 * the stored note. The usual path is one insert (guarded by the miner's existence) and one read of the answer.
 */
export async function addMinerNote(db: DB, userId: string, b: AddNoteInput): Promise<MinerNote> {
  let marksVersion: string | undefined;
  const inserted = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('miner_notes')
      .columns(['id', 'agent_key', 'ip', 'kind', 'fault_type', 'text', 'author_id', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('miners')
          .select([
            sql<string>`${b.id}::uuid`.as('id'),
            'agent_key',
            'ip',
            sql<string>`${b.kind}`.as('kind'),
            sql<string | null>`${b.kind === 'fault' ? (b.faultType ?? null) : null}`.as('fault_type'),
            sql<string>`${b.text}`.as('text'),
            sql<string>`${userId}::uuid`.as('author_id'),
            sql<Date>`${b.createdAt}::timestamptz`.as('created_at'),
          ])
          .where('agent_key', '=', b.agentKey)
          .where('ip', '=', b.ip)
          .limit(1),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row && b.kind === 'fault' && b.faultType) {
      const now = new Date();
      const fields = { accident: b.faultType, accident_note: b.text, accident_at: now };
      const marks = await trx
        .insertInto('miner_marks')
        .values({ agent_key: b.agentKey, ip: b.ip, updated_by: userId, updated_at: now, ...fields })
        .onConflict((oc) => oc.columns(['agent_key', 'ip']).doUpdateSet({ ...fields, updated_by: userId, updated_at: now }))
        .returning(sql<string>`version::text`.as('version'))
        .executeTakeFirstOrThrow();
      marksVersion = marks.version;
    }
    return !!row;
  });
  const stored = await findNote(db, b.id);
  if (!stored) {
    // Nothing inserted and nothing stored under the id: the miner is not on the farm.
    if (!(await minerExists(db, b.agentKey, b.ip))) throw fieldError('ip', 'validation.minerUnknown', 'notFound');
    throw new AppError('server');
  }
  // Already stored (a replay, or a concurrent twin): the same body answers the stored note, another 422.
  if (!inserted && !sameNote(stored, b)) throw new AppError('idempotencyMismatch');
  return marksVersion === undefined ? toNote(stored) : { ...toNote(stored), marksVersion };
}

export async function listMinerNotes(db: DB, agentKey: string, ip: string, page: number, pageSize: number): Promise<Page<MinerNote>> {
  const base = db.selectFrom('miner_notes as n').where('n.agent_key', '=', agentKey).where('n.ip', '=', ip);
  const [rows, total] = await Promise.all([
    base
      .leftJoin('users as u', 'u.id', 'n.author_id')
      .select(['n.id', 'n.agent_key', 'n.ip', 'n.kind', 'n.fault_type', 'n.text', 'n.created_at', 'n.received_at', 'u.user_name as author_name'])
      .orderBy('n.created_at', 'desc')
      .orderBy('n.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toNote), total: Number(total.n), curPage: page, pageSize };
}

/** Sets (or clears) the miner's customer when the caller saw the current marks version; otherwise 409 with the current value. */
export async function changeMinerCustomer(db: DB, userId: string, b: ChangeCustomerInput): Promise<ChangeMinerCustomerResult> {
  return db.transaction().execute(async (trx) => {
    const miner = await trx.selectFrom('miners').select('id').where('agent_key', '=', b.agentKey).where('ip', '=', b.ip).forUpdate().executeTakeFirst();
    if (!miner) throw fieldError('ip', 'validation.minerUnknown', 'notFound');
    if (b.customer !== null) {
      const c = await trx.selectFrom('customers').select('id').where('agent_key', '=', b.agentKey).where('name', '=', b.customer).executeTakeFirst();
      if (!c) throw fieldError('customer', 'validation.customerUnknown');
    }
    const marks = await trx
      .selectFrom('miner_marks')
      .select(['customer', sql<string>`version::text`.as('version')])
      .where('agent_key', '=', b.agentKey)
      .where('ip', '=', b.ip)
      .executeTakeFirst();
    const current = { customer: marks?.customer ?? null, marksVersion: marks?.version ?? '0' };
    if (current.marksVersion !== b.baseVersion) {
      // Already what the caller wants (e.g. a replay without a key): nothing to change.
      if (current.customer === b.customer) return { marksVersion: current.marksVersion };
      const data: MinerCustomerConflict = { current };
      throw new AppError('conflict', {}, data);
    }
    const now = new Date();
    const row = await trx
      .insertInto('miner_marks')
      .values({ agent_key: b.agentKey, ip: b.ip, customer: b.customer, updated_by: userId, updated_at: now })
      .onConflict((oc) => oc.columns(['agent_key', 'ip']).doUpdateSet({ customer: b.customer, updated_by: userId, updated_at: now }))
      .returning(sql<string>`version::text`.as('version'))
      .executeTakeFirstOrThrow();
    return { marksVersion: row.version };
  });
}
