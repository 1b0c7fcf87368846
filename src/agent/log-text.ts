/** A miner's log as the agent read it (history logs, security scans), and how much of it is kept. */
import { HISTORY_LOG_MAX_BYTES } from '@shared/schemas/miner-records';

export interface MinerLog {
  content: string;
  source: string;
}

/** The last `max` bytes of a text, cut at a line start when one is near. */
export function tailBytes(text: string, max = HISTORY_LOG_MAX_BYTES): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= max) return text;
  const tail = buf.subarray(buf.length - max).toString('utf8').replace(/^\uFFFD+/, '');
  const nl = tail.indexOf('\n');
  return nl >= 0 && nl < 4096 ? tail.slice(nl + 1) : tail;
}
