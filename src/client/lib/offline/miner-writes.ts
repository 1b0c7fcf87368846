/**
 * The technician's first offline writes (issue 5): note, fault mark and customer change on a miner, as outbox
 * entries. Kinds and bodies live here so that the miner card (features/field) that creates them and the outbox
 * drawer (features/offline) that edits dead letters agree. `registerMinerWrites()` installs the kinds'
 * onApplied hooks: the cached miner row takes the applied value at once (the next delta sync confirms it), and a
 * later customer change of the same miner queued against the old marks version is rebased on the new one.
 */
import type { MinerAccidentType } from '@shared/miner-labels';
import type { AddMinerNoteBody, ChangeMinerCustomerBody, ChangeMinerCustomerResult, MinerCustomerConflict, MinerNote } from '@shared/schemas/miner-notes';
import { offlineDb } from './db';
import { updateMinerByIp } from './miner-store';
import type { OutboxEntry } from './db';
import { enqueue, registerOutboxKind } from './outbox';
import { uuid7 } from './uuid7';

export const MINER_WRITE_KINDS = { note: 'miner.note', fault: 'miner.fault', customer: 'miner.customer' } as const;
export type MinerWriteKind = (typeof MINER_WRITE_KINDS)[keyof typeof MINER_WRITE_KINDS];

export const MINER_NOTES_URL = '/api/miner/notes';
export const MINER_CUSTOMER_URL = '/api/miner/customer';

export type NoteBody = AddMinerNoteBody & { kind: 'note' | 'fault'; text: string; createdAt: string; id: string };
export type CustomerBody = ChangeMinerCustomerBody & { customer: string | null; baseVersion: string };

export function isMinerWriteKind(kind: string): kind is MinerWriteKind {
  return (Object.values(MINER_WRITE_KINDS) as string[]).includes(kind);
}

export function queueMinerNote(agentKey: string, ip: string, text: string, label: string): Promise<OutboxEntry> {
  const body: NoteBody = { agentKey, id: uuid7(), ip, kind: 'note', text, createdAt: new Date().toISOString() };
  return enqueue({ kind: MINER_WRITE_KINDS.note, url: MINER_NOTES_URL, body, agentKey, label });
}

export function queueMinerFault(agentKey: string, ip: string, faultType: MinerAccidentType, text: string, label: string): Promise<OutboxEntry> {
  const body: NoteBody = { agentKey, id: uuid7(), ip, kind: 'fault', faultType, text, createdAt: new Date().toISOString() };
  return enqueue({ kind: MINER_WRITE_KINDS.fault, url: MINER_NOTES_URL, body, agentKey, label });
}

export function queueMinerCustomer(agentKey: string, ip: string, customer: string | null, baseVersion: string, label: string): Promise<OutboxEntry> {
  const body: CustomerBody = { agentKey, ip, customer, baseVersion };
  return enqueue({ kind: MINER_WRITE_KINDS.customer, url: MINER_CUSTOMER_URL, body, agentKey, label });
}

/** The server's current value carried by a 409 of a customer change, if any. */
export function customerConflict(entry: OutboxEntry): MinerCustomerConflict['current'] | null {
  const data = entry.lastError?.data as Partial<MinerCustomerConflict> | undefined;
  const cur = data?.current;
  return cur && typeof cur.marksVersion === 'string' ? { customer: cur.customer ?? null, marksVersion: cur.marksVersion } : null;
}

/** The customer shown for a miner: the newest not-yet-applied change (pending/failed), else the cached one. */
export function pendingCustomer(entries: OutboxEntry[]): { customer: string | null } | null {
  const last = [...entries].reverse().find((e) => e.kind === MINER_WRITE_KINDS.customer && e.state !== 'dead');
  return last ? { customer: (last.body as CustomerBody).customer } : null;
}

/**
 * Never-sent customer changes of the miner made on top of `from` by the same user follow their applied change to
 * `to`. Another user's stay on `from`: applied later, they meet a 409 with the current value, for that user to decide.
 */
async function rebaseCustomerChanges(applied: OutboxEntry, ip: string, from: string, to: string): Promise<void> {
  await offlineDb()
    .outbox.where('agentKey')
    .equals(applied.agentKey)
    .filter((e) => {
      const b = e.body as CustomerBody;
      return e.id !== applied.id && e.userId === applied.userId && e.kind === MINER_WRITE_KINDS.customer && e.state === 'pending' && e.attempts === 0 && b.ip === ip && b.baseVersion === from;
    })
    .modify((e) => {
      e.body = { ...(e.body as CustomerBody), baseVersion: to };
    });
}

/** Installs the kinds' onApplied hooks (again after the outbox's registry was reset, in tests). */
export function registerMinerWrites(): void {
  registerOutboxKind(MINER_WRITE_KINDS.fault, {
    onApplied: async (entry, data) => {
      const b = entry.body as NoteBody;
      const version = (data as MinerNote | null)?.marksVersion;
      const db = offlineDb();
      await db.transaction('rw', db.minerBuckets, db.minerIndex, db.outbox, async () => {
        const cached = await updateMinerByIp(entry.agentKey, b.ip, () => ({ accident: b.faultType ?? null, accidentNote: b.text, ...(version ? { marksVersion: version } : {}) }));
        // The mark bumped the marks version: a customer change queued after it was based on the old one.
        if (cached && version) await rebaseCustomerChanges(entry, b.ip, cached.marksVersion, version);
      });
    },
  });
  registerOutboxKind(MINER_WRITE_KINDS.customer, {
    onApplied: async (entry, data) => {
      const b = entry.body as CustomerBody;
      const version = (data as ChangeMinerCustomerResult | null)?.marksVersion;
      if (typeof version !== 'string') return;
      const db = offlineDb();
      await db.transaction('rw', db.minerBuckets, db.minerIndex, db.outbox, async () => {
        await updateMinerByIp(entry.agentKey, b.ip, () => ({ customer: b.customer, marksVersion: version }));
        await rebaseCustomerChanges(entry, b.ip, b.baseVersion, version);
      });
    },
  });
}
