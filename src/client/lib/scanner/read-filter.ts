/**
 * Which camera reads become a scan: a value counts only after two equal consecutive reads (a single
 * misread frame is never taken), and the same value is not taken again for `repeatMs` (~2 s) so a label
 * held in front of the camera does not fire over and over. Pure; the scanner feeds it every decoded frame.
 */
export interface ReadFilterOptions {
  /** Ignore the value just taken for this long (ms). */
  repeatMs?: number;
  /** Two reads further apart than this are not "consecutive" (ms). */
  pairWindowMs?: number;
}

export class ReadFilter {
  private last: { value: string; at: number } | null = null;
  private taken: { value: string; at: number } | null = null;
  private readonly repeatMs: number;
  private readonly pairWindowMs: number;

  constructor(opts: ReadFilterOptions = {}) {
    this.repeatMs = opts.repeatMs ?? 2000;
    this.pairWindowMs = opts.pairWindowMs ?? 1500;
  }

  /** One decoded frame. Returns the value when it becomes a scan, else null. */
  read(value: string, now: number): string | null {
    if (this.taken && this.taken.value === value && now - this.taken.at < this.repeatMs) {
      this.last = null;
      return null;
    }
    const confirmed = this.last !== null && this.last.value === value && now - this.last.at <= this.pairWindowMs;
    if (!confirmed) {
      this.last = { value, at: now };
      return null;
    }
    this.last = null;
    this.taken = { value, at: now };
    return value;
  }

  /** A frame in which nothing was decoded: the pair must start again. */
  miss(): void {
    this.last = null;
  }

  reset(): void {
    this.last = null;
    this.taken = null;
  }
}
