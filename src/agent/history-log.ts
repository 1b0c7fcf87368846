/**
 * Reads a miner's log for a history-log task (spec 3 §7 history log; miner-protocols.md §9 and the CGI table):
 * stock Antminer firmware serves it as text/plain at /cgi-bin/get_kernel_log.cgi (newer builds) or
 * /cgi-bin/log.cgi (older X19; a 404 from the first means try the second), behind the same digest auth as the
 * other CGIs; VNish serves its logs without auth under /api/v1/logs/ (§6.2; families/vnish.ts VNISH_HISTORY_LOGS).
 * Other families (Whatsminer, Braiins OS, LuxOS: no log endpoint in the reference): unsupported-op. The last
 * HISTORY_LOG_MAX_BYTES are kept.
 */
import { webClient } from './families/antminer-stock';
import { type MinerLog, tailBytes } from './log-text';
import { VNISH_HISTORY_LOGS, readVnishLog } from './families/vnish';
import { type DriverEnv, type MinerHandle, OpError } from './miner-types';
import { HttpError } from './protocols/http-client';

const PATHS = ['/cgi-bin/get_kernel_log.cgi', '/cgi-bin/log.cgi'] as const;

export async function readMinerLog(h: MinerHandle, env: DriverEnv): Promise<MinerLog> {
  if (h.id.family === 'vnish') return readVnishLog(h, env, VNISH_HISTORY_LOGS);
  if (h.id.family !== 'antminer-stock') throw new OpError('unsupported-op', `history log not supported for ${h.id.family}`);
  const web = webClient(h, env);
  for (const path of PATHS) {
    const res = await web.request('GET', path, { timeoutMs: Math.max(env.webTimeoutMs, 15000), keep: 'tail' });
    if (res.status === 404) continue;
    if (res.status < 200 || res.status >= 300) throw new HttpError('http-status', `${path}: HTTP ${res.status}`, res.status);
    return { content: tailBytes(res.body), source: path };
  }
  throw new OpError('unsupported-op', 'the miner serves no log');
}
