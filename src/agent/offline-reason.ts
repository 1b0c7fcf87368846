/**
 * Why a miner's poll failed, as the agent's error code its reading carries while the miner is offline
 * (AGENT_ERROR_CODES): the technician sent to it learns whether to look at power and cabling (no answer, host
 * unreachable) or at the miner itself (connection refused or dropped: rebooting, hung, API off). Null when the miner
 * answered something (a reply we could not use is not a network failure) or the failure is not one we can name.
 */
import type { MinerErrorCode } from '@shared/schemas/miner-snapshot';
import { OFFLINE_REASON_CODES } from '@shared/schemas/miner-snapshot';
import { AGENT_ERROR } from './miner-types';
import { RpcError } from './protocols/cgminer-rpc';
import { HttpError } from './protocols/http-client';

export function offlineReason(e: unknown): MinerErrorCode | null {
  if (!(e instanceof RpcError || e instanceof HttpError)) return null;
  switch (e.kind) {
    case 'timeout':
    case 'connect-timeout':
      return { ...AGENT_ERROR.noAnswer };
    case 'refused':
      return { ...AGENT_ERROR.refused };
    case 'reset':
    case 'empty':
      return { ...AGENT_ERROR.dropped };
    case 'unreachable':
      return { ...AGENT_ERROR.unreachable };
    default:
      return null;
  }
}

/**
 * A reading's error codes with `reason` in place of any earlier offline reason, first (what a technician acts on now,
 * and what a narrow cell shows), then the miner's own codes from its last answer.
 */
export function withOfflineReason(codes: readonly MinerErrorCode[], reason: MinerErrorCode | null): MinerErrorCode[] {
  const kept = codes.filter((c) => !OFFLINE_REASON_CODES.includes(c.code));
  return reason ? [reason, ...kept] : kept;
}
