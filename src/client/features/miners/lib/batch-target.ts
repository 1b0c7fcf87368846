/**
 * Pure parts of the batch operations UI: which target a batch is sent to (the selection, "all matching"
 * or an uploaded IP list), the op menu groups, the parameter bodies of the dialogs (progress figures: lib/batch-progress.ts).
 */
import {
  BATCH_MAX_TARGETS,
  type BatchOp,
  HASHRATE_PERCENT_MAX,
  HASHRATE_PERCENT_MIN,
  LIST_ANSWER_OPS,
  type MinerBatchOp,
  type SendCodeChannel,
  isSensitiveBatchOp,
} from '@shared/schemas/batch-operations';
import type { MinerFilter } from '@shared/schemas/miner';
import { POOL_CONFIG_IPS_IN_URL_MAX } from '@shared/schemas/pool-config-file';
import type { MinerSelection } from './miner-selection';

/** Wire target of a batch: exactly one of the three. */
export type BatchTarget = { ips: string } | { filter: string } | { ipListFileId: string };

/** An uploaded list in use as the target. */
export interface UploadedIpList {
  fileId: string;
  count: number;
  matched: number;
  fileName: string;
}

/** Menu groups of the miner ops (setAgentPower is a farm setting, not offered on the miner list). */
export const BATCH_OP_GROUPS: readonly { key: 'control' | 'network' | 'config' | 'tuning' | 'records'; ops: readonly MinerBatchOp[] }[] = [
  { key: 'control', ops: ['batchReboot', 'batchBlink', 'batchChangeWorkMode', 'batchReset'] },
  { key: 'network', ops: ['batchRecoverDHCP', 'batchOfflineRecoverDHCP'] },
  { key: 'config', ops: ['batchSetPool', 'batchUpgrade', 'batchSetFans'] },
  { key: 'tuning', ops: ['batchAdjustHashRate', 'batchSetFrequency', 'batchChangePowerPercent'] },
  { key: 'records', ops: ['batchCustomer', 'batchAccident', 'batchOffline', 'batchDelete'] },
];

/**
 * Ops that take their miners off the on-shelf list as soon as they are accepted (the server marks them off shelf, or
 * removes them, in the same request): the list is read again at once and a selection of them is let go.
 */
export const LEAVES_LIST_OPS: readonly MinerBatchOp[] = ['batchOffline', 'batchOfflineRecoverDHCP', 'batchDelete'];

export const opNeedsCode = (op: BatchOp): boolean => isSensitiveBatchOp(op);
export const opAnswersLists = (op: BatchOp): boolean => (LIST_ANSWER_OPS as readonly string[]).includes(op);

/**
 * The target of the current selection. An "all matching" selection without exclusions is sent as the
 * filter; with exclusions the matching IPs are fetched (`matchingIps`) and the excluded ones removed.
 */
export async function selectionTarget(
  selection: MinerSelection,
  uploaded: UploadedIpList | null,
  matchingIps: (filter: MinerFilter) => Promise<string[]>,
): Promise<BatchTarget | null> {
  if (uploaded) return { ipListFileId: uploaded.fileId };
  if (selection.kind === 'ips') return selection.ips.length ? { ips: selection.ips.join(',') } : null;
  if (selection.excluded.length === 0) return { filter: JSON.stringify(selection.filter) };
  const excluded = new Set(selection.excluded);
  const ips = (await matchingIps(selection.filter)).filter((ip) => !excluded.has(ip));
  return ips.length ? { ips: ips.join(',') } : null;
}

/** Over the per-batch limit: the dialog refuses before asking the server. */
export function overLimit(count: number): boolean {
  return count > BATCH_MAX_TARGETS;
}

export function clampHashratePercent(v: number): number {
  if (!Number.isFinite(v)) return HASHRATE_PERCENT_MAX;
  return Math.min(HASHRATE_PERCENT_MAX, Math.max(HASHRATE_PERCENT_MIN, Math.round(v)));
}

export interface PoolForm {
  pool1Url: string;
  pool1User: string;
  pool1Password: string;
  pool2Url: string;
  pool2User: string;
  pool2Password: string;
  pool3Url: string;
  pool3User: string;
  pool3Password: string;
  workerSuffix: 'ip' | 'sn' | 'none';
}

export const EMPTY_POOL_FORM: PoolForm = {
  pool1Url: '',
  pool1User: '',
  pool1Password: '',
  pool2Url: '',
  pool2User: '',
  pool2Password: '',
  pool3Url: '',
  pool3User: '',
  pool3Password: '',
  workerSuffix: 'none',
};

/** Trimmed pool fields; empty ones are left out. */
export function poolBody(f: PoolForm): Record<string, string> {
  const out: Record<string, string> = { workerSuffix: f.workerSuffix };
  for (const [k, v] of Object.entries(f)) {
    if (k === 'workerSuffix') continue;
    const s = String(v).trim();
    if (s) out[k] = s;
  }
  return out;
}

/** How the worker name will look for an example miner (shown under the suffix choice); `unset` stands for a worker not typed yet. */
export function workerPreview(user: string, suffix: PoolForm['workerSuffix'], example: { ip: string; sn: string }, unset: string): string {
  const u = user.trim() || unset;
  if (suffix === 'ip') return `${u}.${example.ip.replace(/\./g, 'x')}`;
  if (suffix === 'sn') return `${u}.${example.sn || 'SN'}`;
  return u;
}

/** Seconds left of a resend countdown that started at `sentAt` (ms). */
export function countdownLeft(sentAt: number | null, now: number, seconds: number): number {
  if (sentAt === null) return 0;
  return Math.max(0, Math.ceil((sentAt + seconds * 1000 - now) / 1000));
}

export type BatchParams = Record<string, string | number | boolean>;

/** The dialog's starting values of each op. */
export function defaultParams(op: MinerBatchOp): BatchParams {
  switch (op) {
    case 'batchBlink':
      return { on: true };
    case 'batchChangeWorkMode':
      return { mode: 'normal' };
    case 'batchUpgrade':
      return { fileUrl: '', fileName: '', keepSettings: true };
    case 'batchCustomer':
      return { customer: '', clear: false };
    case 'batchAccident':
      return { accident: '', note: '' };
    case 'batchAdjustHashRate':
      return { percent: HASHRATE_PERCENT_MAX };
    case 'batchSetFrequency':
      return { freqMhz: 500 };
    case 'batchChangePowerPercent':
      return { percent: 100 };
    case 'batchSetFans':
      return { mode: 'auto', percent: 100 };
    case 'batchSetPool':
      return { ...EMPTY_POOL_FORM };
    default:
      return {};
  }
}

/** What is sent: empty strings left out, the hashrate percent clamped, fan percent only when manual. */
export function paramsBody(op: MinerBatchOp, values: BatchParams): BatchParams {
  if (op === 'batchSetPool') return poolBody(values as unknown as PoolForm);
  const out: BatchParams = {};
  for (const [k, v] of Object.entries(values)) {
    if (typeof v === 'string' && v.trim() === '') continue;
    out[k] = typeof v === 'string' ? v.trim() : v;
  }
  if (op === 'batchAdjustHashRate' && out.percent !== undefined) out.percent = clampHashratePercent(Number(values.percent));
  if (op === 'batchSetFans' && values.mode !== 'manual') delete out.percent;
  return out;
}

/** The number fields an op cannot run without (fan speed only when manual). */
const REQUIRED_NUMBERS: Partial<Record<MinerBatchOp, readonly string[]>> = {
  batchAdjustHashRate: ['percent'],
  batchSetFrequency: ['freqMhz'],
  batchChangePowerPercent: ['percent'],
  batchSetFans: ['percent'],
};

/**
 * The required number fields left empty: the dialog says so at the field instead of sending. An emptied field is never
 * read as 0 — a fan speed of 0 % would be sent to every target.
 */
export function missingNumbers(op: MinerBatchOp, values: BatchParams): string[] {
  if (op === 'batchSetFans' && values.mode !== 'manual') return [];
  return (REQUIRED_NUMBERS[op] ?? []).filter((k) => {
    const v = values[k];
    return v === undefined || v === '' || (typeof v === 'number' && !Number.isFinite(v));
  });
}

/** Which miners a pool configuration file covers: the whole farm ({}), some addresses, or a filter's matches less some. */
export type PoolConfigFileScope = { ips?: readonly string[]; filter?: MinerFilter; exclude?: readonly string[] };

/**
 * The pool configuration file's scope of a selection: its addresses, or — "all matching" — its filter less the miners
 * unticked, at any size; null (the whole farm's file) when nothing is selected, or when the addresses would not fit a
 * request line (POOL_CONFIG_IPS_IN_URL_MAX).
 */
export function poolConfigScopeOf(s: MinerSelection): PoolConfigFileScope | null {
  if (s.kind === 'matching') return s.excluded.length <= POOL_CONFIG_IPS_IN_URL_MAX ? { filter: s.filter, exclude: s.excluded } : null;
  return s.ips.length > 0 && s.ips.length <= POOL_CONFIG_IPS_IN_URL_MAX ? { ips: s.ips } : null;
}

/** What the verification-code step can offer a user: e-mail when bound; SMS when a phone is bound outside area code 86. */
export interface CodeChannels {
  email: boolean;
  sms: 'ok' | 'unbound' | 'area86';
  /** The channel chosen at first; null when neither can receive a code (bind one in the user center first). */
  preferred: SendCodeChannel | null;
}

export function codeChannels(user: { email?: string | null; mobile?: string | null; areaCode?: string } | undefined): CodeChannels {
  // Unknown yet (the user is still loading): offer both, as the server decides.
  if (!user) return { email: true, sms: 'ok', preferred: 'email' };
  const area = (user.areaCode ?? '').replace(/\D/g, '').replace(/^00/, '');
  const email = Boolean(user.email);
  const sms = !user.mobile ? 'unbound' : area === '86' ? 'area86' : 'ok';
  return { email, sms, preferred: email ? 'email' : sms === 'ok' ? 'sms' : null };
}
