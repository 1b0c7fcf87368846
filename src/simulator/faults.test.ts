import { describe, expect, it } from 'vitest';
import type { SimMiner } from './devices/sim-miner';
import { DEMO_FAULT_RATES, FaultProcess } from './faults';
import type { FaultKind } from './sim-types';

/** A stand-in miner that only records the faults injected into it. */
interface FakeMiner {
  faults: Set<FaultKind>;
  injectFault(kind: FaultKind): void;
  hasFault(kind: FaultKind): boolean;
}
function fakeMiner(): FakeMiner {
  const faults = new Set<FaultKind>();
  return { faults, injectFault: (k) => void faults.add(k), hasFault: (k) => faults.has(k) };
}
/** The stand-ins where the fault process takes miners (it calls only injectFault and hasFault). */
const asMiners = (m: FakeMiner[]) => m as unknown as SimMiner[];

describe('demo fault rates', () => {
  it('leave about 2 % of a farm faulty at any time, offline the most common', () => {
    const miners = Array.from({ length: 20_000 }, fakeMiner);
    new FaultProcess(7, DEMO_FAULT_RATES).seedSteadyState(asMiners(miners), 0);
    const faulty = miners.filter((m) => m.faults.size > 0).length / miners.length;
    expect(faulty).toBeGreaterThan(0.015);
    expect(faulty).toBeLessThan(0.025);
    const offline = miners.filter((m) => m.faults.has('offline')).length;
    const fans = miners.filter((m) => m.faults.has('fan-failure')).length;
    expect(offline).toBeGreaterThan(fans);
  });

  it('bring new faults at their rates per miner per hour', () => {
    const miners = Array.from({ length: 20_000 }, fakeMiner);
    const p = new FaultProcess(11, DEMO_FAULT_RATES);
    for (let minute = 0; minute < 60; minute++) p.tick(asMiners(miners), minute * 60_000, 60_000);
    // An hour of new faults (none expire in these stand-ins): the rates' sum per hour, ~6 % of the fleet.
    const rate = Object.values(DEMO_FAULT_RATES).reduce((a, b) => a + b, 0);
    const hit = miners.filter((m) => m.faults.size > 0).length / miners.length;
    expect(hit).toBeGreaterThan(rate * 0.8);
    expect(hit).toBeLessThan(rate * 1.2);
  });
});
