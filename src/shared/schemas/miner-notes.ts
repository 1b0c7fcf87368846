/**
 * Technician writes from the offline outbox (issue 5): notes and fault marks on a miner (append-only, the
 * client's UUIDv7 is the primary key) and a change of the miner's customer guarded by the marks version.
 */
import { z } from 'zod';
import { MINER_ACCIDENT_TYPES, type MinerAccidentType } from '../miner-labels';
import { LIMITS, isIPv4 } from '../validation';
import { PageQuery } from './common';

export const MINER_NOTE_KINDS = ['note', 'fault'] as const;
export type MinerNoteKind = (typeof MINER_NOTE_KINDS)[number];
export const MINER_NOTE_MAX = LIMITS.minerNoteMax;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const agentKey = z.string().min(1, 'validation.agentKeyRequired').max(64);
const ip = z.string().refine(isIPv4, 'validation.ipAddress');

export const AddMinerNoteBody = z
  .object({
    agentKey,
    id: z.string().regex(UUID_RE, 'validation.id').transform((v) => v.toLowerCase()),
    ip,
    kind: z.enum(MINER_NOTE_KINDS),
    /** The accident type of a fault (GET /api/options/accidentList: the fault labels, then power failure …). */
    faultType: z.enum(MINER_ACCIDENT_TYPES, { message: 'validation.accidentType' }).optional(),
    text: z.string().trim().max(MINER_NOTE_MAX, 'validation.remarkMax').default(''),
    createdAt: z.iso.datetime({ offset: true, message: 'validation.invalid' }),
  })
  .superRefine((b, ctx) => {
    if (b.kind === 'fault' && !b.faultType) ctx.addIssue({ code: 'custom', path: ['faultType'], message: 'validation.faultTypeRequired' });
    if (b.kind === 'note' && b.faultType) ctx.addIssue({ code: 'custom', path: ['faultType'], message: 'validation.invalid' });
    if (b.kind === 'note' && b.text === '') ctx.addIssue({ code: 'custom', path: ['text'], message: 'validation.required' });
  });
export type AddMinerNoteBody = z.input<typeof AddMinerNoteBody>;

export const MinerNotesQuery = z.object({ agentKey, ip }).extend(PageQuery.shape);

export interface MinerNote {
  id: string;
  ip: string;
  kind: MinerNoteKind;
  faultType: MinerAccidentType | null;
  text: string;
  authorName: string | null;
  /** Client time of the change (ISO). */
  createdAt: string;
  /** When the server stored it (ISO). */
  receivedAt: string;
  /** A fault just stored: the miner's marks version after the accident mark (the phone rebases queued customer changes on it). */
  marksVersion?: string;
}

export const ChangeMinerCustomerBody = z.object({
  agentKey,
  ip,
  /** An existing customer name of the farm, or null to clear. */
  customer: z.string().trim().min(1, 'validation.required').max(100, 'validation.remarkMax').nullable(),
  /** miner_marks.version the change was made against ('0' = the miner had no marks). */
  baseVersion: z.string().regex(/^\d{1,19}$/, 'validation.invalid'),
});
export type ChangeMinerCustomerBody = z.input<typeof ChangeMinerCustomerBody>;

export interface ChangeMinerCustomerResult {
  marksVersion: string;
}

/** data of the 409 answered when baseVersion is stale. */
export interface MinerCustomerConflict {
  current: { customer: string | null; marksVersion: string };
}
