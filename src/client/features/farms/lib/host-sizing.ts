/** Agent (NUC) sizing guidance of spec 1 §9 and spec 2 §9. */
export const NUC_SIZING = {
  coresPer10k: 4,
  memoryGbPer10k: 16,
  diskGbPer10k: 100,
  bandwidthMbitPer10k: 20,
  maxMinersPerNuc: 20_000,
  maxPingMinersMs: 100,
  maxPingServiceMs: 200,
  latestWindowsVersion: '5.4.5',
} as const;

export interface SizingAdvice {
  /** Miner count is at or above the per-NUC limit. */
  overLimit: boolean;
  /** Recommended resources for this many miners (rounded up to blocks of 10,000). */
  cores: number;
  memoryGb: number;
  diskGb: number;
  bandwidthMbit: number;
  /** NUCs needed to stay under the per-NUC limit. */
  nucsNeeded: number;
}

export function sizingAdvice(minerCount: number): SizingAdvice {
  const blocks = Math.max(1, Math.ceil(minerCount / 10_000));
  return {
    overLimit: minerCount >= NUC_SIZING.maxMinersPerNuc,
    cores: blocks * NUC_SIZING.coresPer10k,
    memoryGb: blocks * NUC_SIZING.memoryGbPer10k,
    diskGb: blocks * NUC_SIZING.diskGbPer10k,
    bandwidthMbit: blocks * NUC_SIZING.bandwidthMbitPer10k,
    nucsNeeded: Math.max(1, Math.floor(minerCount / NUC_SIZING.maxMinersPerNuc) + 1),
  };
}

/** Resources of a host below the recommendation for its miners (memory as the agent reports it, in MB). */
export function hostShortfalls(host: { minerCount: number; cpuCores: number | null; memoryMb: number | null }): Array<'cpu' | 'memory'> {
  const advice = sizingAdvice(Math.min(host.minerCount, NUC_SIZING.maxMinersPerNuc - 1));
  const out: Array<'cpu' | 'memory'> = [];
  if (host.cpuCores !== null && host.cpuCores < advice.cores) out.push('cpu');
  // A 16 GB machine reports a little less than 16 GiB of usable memory.
  if (host.memoryMb !== null && host.memoryMb < advice.memoryGb * 1024 * 0.9) out.push('memory');
  return out;
}
