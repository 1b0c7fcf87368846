/**
 * Socket deadlines without a timer per socket: at 1,000 exchanges in flight, one setTimeout + clearTimeout
 * per connection (and a second one once connected) is measurable work and garbage. Every pending deadline
 * sits in one set that a single interval sweeps every TICK_MS; a deadline therefore fires up to TICK_MS
 * late, which is nothing next to the 0.3–10 s budgets it enforces. The interval exists only while a
 * deadline is pending.
 */

export const DEADLINE_TICK_MS = 25;

export interface Deadline {
  /** performance.now() value at which `fire` runs; may be moved (e.g. connect → exchange budget). */
  at: number;
  fire: () => void;
}

const pending = new Set<Deadline>();
let sweeper: NodeJS.Timeout | null = null;

function sweep(): void {
  const now = performance.now();
  for (const d of pending) {
    if (d.at <= now) {
      pending.delete(d);
      d.fire();
    }
  }
  if (pending.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

/** Calls `fire` once, `ms` from now, unless cancelled first. */
export function addDeadline(ms: number, fire: () => void): Deadline {
  const d: Deadline = { at: performance.now() + ms, fire };
  pending.add(d);
  sweeper ??= setInterval(sweep, DEADLINE_TICK_MS);
  return d;
}

/** Moves a pending deadline to `ms` from now. */
export function resetDeadline(d: Deadline, ms: number): void {
  d.at = performance.now() + ms;
}

export function cancelDeadline(d: Deadline): void {
  pending.delete(d);
  if (pending.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = null;
  }
}

/** Pending deadlines (tests). */
export function pendingDeadlines(): number {
  return pending.size;
}
