import type { FarmInfo, FarmRow } from '@shared/schemas/farm';

/** The edit dialog takes FarmInfo; a list row carries every field it needs. */
export function farmRowToInfo(row: FarmRow): FarmInfo {
  return {
    timeout: 0,
    agentKey: row.agentKey,
    version: row.version,
    noticeEmails: row.noticeEmails,
    name: row.agentName || row.name,
    agentAddr: row.agentAddr,
    selfManaged: row.selfManaged,
    lastOnlineAt: row.lastOnlineAt,
  };
}
