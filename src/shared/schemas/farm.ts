import { z } from 'zod';
import { AGENT_KEY_RE, LIMITS, REGIONS, isEmailList } from '../validation';
import { boolish } from './common';

const agentName = z.string().trim().min(1, 'validation.agentNameRequired').max(LIMITS.farmNameMax, 'validation.agentNameMax');
const noticeEmails = z
  .string()
  .trim()
  .default('')
  .refine(isEmailList, 'validation.noticeEmails')
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean).join(','));
const agentAddr = z.string().trim().max(500, 'validation.remarkMax').default('');

export const CreateFarmBody = z.object({
  agentName,
  agentKey: z.string().trim().min(1, 'validation.agentKeyRequired').regex(AGENT_KEY_RE, 'validation.agentKeyFormat'),
  noticeEmails,
  agentAddr,
  selfManaged: boolish.default(false),
});
/** agentKey is locked when editing: it identifies the farm and cannot change. */
export const UpdateFarmBody = z.object({
  agentKey: z.string().trim().min(1, 'validation.agentKeyRequired'),
  agentName,
  noticeEmails,
  agentAddr,
  selfManaged: boolish.optional(),
});
export const FarmKeyBody = z.object({ agentKey: z.string().trim().min(1, 'validation.agentKeyRequired') });
export const UpdateRegionBody = z.object({
  agentKey: z.string().trim().min(1, 'validation.agentKeyRequired'),
  region: z.enum(REGIONS, 'validation.region'),
  read: z.coerce.number().int().min(0).max(1).default(1),
});

/** Row of GET /api/agent/pagelist. */
export interface FarmRow {
  agentKey: string;
  agentName: string;
  name: string;
  noticeEmails: string;
  agentAddr: string;
  selfManaged: boolean;
  version: string | null;
  isOnline: boolean;
  lastOnlineAt: string | null;
  netDelay: number;
  minerCount: number;
  createdAt: string;
}

/** GET /api/agent/info (spec 1 §3 "Agent info"). */
export interface FarmInfo {
  timeout: number;
  agentKey: string;
  version: string | null;
  noticeEmails: string;
  name: string;
  agentAddr: string;
  selfManaged: boolean;
  lastOnlineAt: string | null;
}

/** GET /api/agent/status (spec 1 §3 "NUC status"): netDelay in ms, 0 when unknown. */
export interface NucStatus {
  isOnline: boolean;
  lastOnlineAt: string | null;
  netDelay: number;
}

/** GET /api/agent/getAgentRegion. */
export interface RegionInfo {
  region: (typeof REGIONS)[number];
  read: boolean;
  /** Whether the header selector may change it (spec 1 §4 rules, evaluated on the server). */
  canChange: boolean;
}

/** createv2 answer; the secret is shown once. */
export interface FarmSecret {
  agentKey: string;
  secret: string;
}

/** GET /api/agent/hostInfo row: what the agent reports about its computer. */
export interface HostInfo {
  agentKey: string;
  agentName: string;
  isOnline: boolean;
  lastOnlineAt: string | null;
  netDelay: number;
  version: string | null;
  hostname: string | null;
  os: string | null;
  cpuCores: number | null;
  memoryMb: number | null;
  diskFreeMb: number | null;
  uptimeSec: number | null;
  ip: string | null;
  minerCount: number;
}

/** The farm's agent settings (what GET /api/agent-uplink/config serves besides the scan ranges). */
export const AgentSettingsBody = z.object({
  agentKey: z.string().trim().min(1, 'validation.agentKeyRequired'),
  pollIntervalSec: z.coerce.number().int().min(10, 'validation.pollInterval').max(3600, 'validation.pollInterval').default(60),
  offlineAfterMissed: z.coerce.number().int().min(1, 'validation.offlineAfterMissed').max(100, 'validation.offlineAfterMissed').default(3),
  packetSize: z.coerce.number().int().min(1, 'validation.packetSize').max(5000, 'validation.packetSize').default(50),
  pauseMs: z.coerce.number().int().min(0, 'validation.pauseMs').max(600_000, 'validation.pauseMs').default(3000),
  /** Miner ports, for farms behind port forwarding (empty = the firmware defaults 4028 / 80 / 4433 / 22). */
  rpcPort: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1, 'validation.port').max(65535, 'validation.port').optional()),
  webPort: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1, 'validation.port').max(65535, 'validation.port').optional()),
  whatsminerV3Port: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1, 'validation.port').max(65535, 'validation.port').optional()),
  /** The SSH port the security scan probes (empty = 22). */
  sshPort: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1, 'validation.port').max(65535, 'validation.port').optional()),
});
export type AgentSettings = Omit<z.infer<typeof AgentSettingsBody>, 'agentKey'>;

/** GET /api/agent/power: the farm's power limit and what its online miners on shelf report drawing now. */
export interface FarmPower {
  /** kW; null = no limit. */
  powerLimitKw: number | null;
  /** kW, one decimal: the sum over the miners that report their power; null when none does. */
  powerNowKw: number | null;
  onlineMiners: number;
  /** Online miners whose reading carries a power figure (the sum covers these). */
  reportingMiners: number;
}
