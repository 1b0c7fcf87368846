/**
 * The miner logins of a farm: per firmware family, the user and password its agent tries on the miners (web CGI,
 * REST and API logins) before the factory defaults. The console lists, adds, edits and deletes them
 * (GET /api/agent/minerLogins, POST /api/agent/minerLogins/save, /delete); passwords are never sent back.
 */
import { z } from 'zod';
import { AgentCredentials } from './agent-uplink';

/** The families of AgentCredentials, in the order the console shows them. */
export const MINER_LOGIN_FAMILIES = ['antminer', 'whatsminer', 'braiins', 'vnish', 'luxos'] as const satisfies readonly (keyof AgentCredentials)[];
export type MinerLoginFamily = (typeof MINER_LOGIN_FAMILIES)[number];

/** The user a login without one stands for: Antminer and Braiins OS log in as root; the others ignore the user (on Whatsminer '' is the API v2 admin password). */
export const MINER_LOGIN_DEFAULT_USER: Record<MinerLoginFamily, string> = { antminer: 'root', whatsminer: '', braiins: 'root', vnish: '', luxos: '' };

/** At most this many logins per family: the agent tries them one after the other on a miner that refuses the first. */
export const MINER_LOGINS_PER_FAMILY = 10;

const emptyToUndef = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Printable characters only (a password pasted with a line break or tab would never match). */
const printable = (v: string) => ![...v].some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);

export const MinerLoginSaveBody = z.object({
  agentKey: z.string().trim().min(1, 'validation.agentKeyRequired'),
  /** Edit this login (absent: add one). */
  id: z.preprocess(emptyToUndef, z.string().uuid('validation.id').optional()),
  family: z.enum(MINER_LOGIN_FAMILIES, 'validation.minerLoginFamily'),
  user: z.string().trim().max(32, 'validation.minerLoginUser').refine(printable, 'validation.minerLoginUser').default(''),
  /** Required when adding; when editing, empty keeps the stored password. */
  password: z.string().max(64, 'validation.minerLoginPassword').refine(printable, 'validation.minerLoginPassword').default(''),
});
export type MinerLoginSaveBody = z.infer<typeof MinerLoginSaveBody>;

export const MinerLoginDeleteBody = z.object({
  agentKey: z.string().trim().min(1, 'validation.agentKeyRequired'),
  id: z.string().uuid('validation.id'),
});

/** A login as the console sees it: never its password. */
export interface MinerLoginRow {
  id: string;
  family: MinerLoginFamily;
  user: string;
  updatedAt: string;
}
