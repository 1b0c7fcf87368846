import type { SimMiner } from './devices/sim-miner';
import { createRng } from './rng';
import { FAULT_KINDS, type FaultKind } from './sim-types';

/**
 * Random fault process for the whole fleet: rates are events per miner per hour; each random fault lasts an
 * exponentially distributed time (a repair / self-recovery). Work is O(faults), not O(miners), per tick.
 */

const MEAN_DURATION_MS: Record<FaultKind, number> = {
  'fan-failure': 45 * 60_000,
  'missing-chip': 120 * 60_000,
  'board-down': 90 * 60_000,
  'high-temp': 20 * 60_000,
  'zero-hashrate': 15 * 60_000,
  'cannot-start': 15 * 60_000,
  offline: 10 * 60_000,
  'illegal-pool': 60 * 60_000,
  // a hijacked miner stays hijacked until someone re-flashes it
  'ssh-intrusion': 24 * 60 * 60_000,
};

/** A fault's mean duration in hours (rate per miner per hour × this = the share of miners that have it at any time). */
const meanHours = (kind: FaultKind): number => MEAN_DURATION_MS[kind] / 3_600_000;

/** The share of a demo farm's miners with each fault at any time: about 2 % in all. */
const DEMO_FAULT_SHARES: Readonly<Partial<Record<FaultKind, number>>> = {
  offline: 0.005,
  'fan-failure': 0.003,
  'high-temp': 0.003,
  'missing-chip': 0.002,
  'board-down': 0.002,
  'zero-hashrate': 0.002,
  'cannot-start': 0.001,
  'illegal-pool': 0.0005,
  // a few of the demo's 2,000 miners show up in the security scan
  'ssh-intrusion': 0.0015,
};

/** The fault rates of a farm as operators see one (`npm run demo`, the simulator's --demo-faults): DEMO_FAULT_SHARES ÷ mean duration. */
export const DEMO_FAULT_RATES: Readonly<Partial<Record<FaultKind, number>>> = Object.fromEntries(
  (Object.entries(DEMO_FAULT_SHARES) as [FaultKind, number][]).map(([kind, share]) => [kind, share / meanHours(kind)]),
);

export class FaultProcess {
  private readonly rng: () => number;
  rates: Partial<Record<FaultKind, number>>;

  constructor(seed: number, rates: Partial<Record<FaultKind, number>> = {}) {
    this.rng = createRng(seed ^ 0x5eedfa17);
    this.rates = { ...rates };
  }

  setRates(rates: Partial<Record<FaultKind, number>>): void {
    for (const k of FAULT_KINDS) {
      const v = rates[k];
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) this.rates[k] = v;
    }
  }

  private duration(kind: FaultKind): number {
    return -Math.log(1 - this.rng()) * MEAN_DURATION_MS[kind];
  }

  /** Knuth's Poisson sampler (λ is small per tick); falls back to rounding for large λ. */
  private poisson(lambda: number): number {
    if (lambda <= 0) return 0;
    if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * (this.rng() + this.rng() + this.rng() - 1.5) * 2));
    const l = Math.exp(-lambda);
    let k = 0;
    let p = 1;
    do {
      k++;
      p *= this.rng();
    } while (p > l);
    return k - 1;
  }

  private pickMiner(miners: readonly SimMiner[]): SimMiner | undefined {
    return miners[Math.floor(this.rng() * miners.length)];
  }

  /** Pre-seed the steady state at start: rate × mean duration of the units are already faulty. */
  seedSteadyState(miners: readonly SimMiner[], now: number): void {
    for (const kind of FAULT_KINDS) {
      const r = this.rates[kind] ?? 0;
      if (r <= 0) continue;
      const n = Math.round(miners.length * Math.min(0.5, r * meanHours(kind)));
      for (let i = 0; i < n; i++) this.pickMiner(miners)?.injectFault(kind, true, now + this.duration(kind));
    }
  }

  tick(miners: readonly SimMiner[], now: number, dtMs: number): void {
    if (miners.length === 0) return;
    for (const kind of FAULT_KINDS) {
      const r = this.rates[kind] ?? 0;
      if (r <= 0) continue;
      const n = this.poisson(miners.length * r * (dtMs / 3_600_000));
      for (let i = 0; i < n; i++) {
        const m = this.pickMiner(miners);
        if (m && !m.hasFault(kind)) m.injectFault(kind, true, now + this.duration(kind));
      }
    }
  }
}
