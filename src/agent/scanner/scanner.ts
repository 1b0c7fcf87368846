import type { ScanRange } from '@shared/schemas/agent-uplink';
import { forEachLimit } from '../concurrency';
import type { DriverEnv, IdentifiedMiner } from '../miner-types';
import { iterateRanges, rangeSize, rangesFromSpecs } from './ip-range';
import { identifyMiner } from './identify';

/**
 * Scans IP ranges with bounded concurrency (never more than `concurrency` addresses in flight, each
 * with connect/read timeouts) and identifies every miner found.
 */

export interface ScanResult {
  miners: IdentifiedMiner[];
  /** addresses where nothing we recognise answered */
  unreachable: number;
  scanned: number;
  durationMs: number;
}

export interface ScanOptions {
  concurrency?: number;
  signal?: AbortSignal;
  /** called for each identified miner as soon as it is known */
  onMiner?: (m: IdentifiedMiner) => void;
}

export async function scanRanges(specs: ScanRange[], env: DriverEnv, o: ScanOptions = {}): Promise<ScanResult> {
  const started = Date.now();
  const ranges = rangesFromSpecs(specs);
  const total = rangeSize(ranges);
  const miners: IdentifiedMiner[] = [];
  let unreachable = 0;
  let scanned = 0;
  const concurrency = Math.max(1, Math.min(o.concurrency ?? 1000, total || 1));
  async function* addresses(): AsyncGenerator<string> {
    for (const ip of iterateRanges(ranges)) {
      if (o.signal?.aborted) return;
      yield ip;
    }
  }
  await forEachLimit(addresses(), concurrency, async (ip) => {
    scanned++;
    let m: IdentifiedMiner | null;
    try {
      m = await identifyMiner(ip, env);
    } catch {
      m = null;
    }
    if (m) {
      miners.push(m);
      o.onMiner?.(m);
    } else unreachable++;
  });
  miners.sort((a, b) => ipSortKey(a.ip) - ipSortKey(b.ip));
  return { miners, unreachable, scanned, durationMs: Date.now() - started };
}

function ipSortKey(ip: string): number {
  return ip.split('.').reduce((acc, p) => acc * 256 + Number(p), 0);
}
