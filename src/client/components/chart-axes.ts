/** The axes of the time-series charts (uplot-chart.tsx): their ranges and the time axis' labels. */

/** A value axis' range: from 0 when `zero`, else around the values; never narrower than a tenth of its top (at least 1). */
export function valueRange(min: number | null, max: number | null, zero: boolean): [number, number] {
  if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (zero) return [Math.min(0, min), max > 0 ? max * 1.1 : 1];
  const least = Math.max(Math.abs(max) * 0.1, 1);
  if (max - min >= least) {
    const pad = (max - min) * 0.1;
    return [min - pad, max + pad];
  }
  const mid = (min + max) / 2;
  return [mid - least / 2, mid + least / 2];
}

/**
 * Whether a series' points are drawn as dots: when its `count` points in view are at least `space` px apart on average
 * over the `extent` px from the first to the last (uPlot's own rule), or when that extent is too short to see a line
 * (under `space` × 2 px). Without the second case a farm that had reported for a few minutes showed an empty 24-hour
 * chart: its few points lie within two pixels at the right end.
 */
export function showPoints(count: number, extent: number, space: number): boolean {
  if (count <= 0) return false;
  return count * space <= extent || extent < space * 2;
}

/** How many usual steps between two points make a gap in the line (one late or skipped reading does not). */
export const GAP_STEPS = 3;

/**
 * The series with a gap (null) where the points stop for a while: an outage of the agent, the server or the farm's
 * network. The API answers only the minutes, hours or days it has readings for, and uPlot joins any two points it is
 * given, so an outage of an hour was drawn as a straight line through it, as if there had been data. "A while" is more
 * than GAP_STEPS times the series' usual step (the median distance between its points), whatever the farm's poll
 * interval. With fewer than 3 points there is no usual step: they are returned as they are.
 */
export function withGaps(x: readonly number[], columns: readonly (readonly (number | null)[])[]): { x: number[]; columns: (number | null)[][] } {
  if (x.length < 3) return { x: [...x], columns: columns.map((c) => [...c]) };
  const steps: number[] = [];
  for (let i = 1; i < x.length; i++) steps.push(x[i]! - x[i - 1]!);
  steps.sort((a, b) => a - b);
  const usual = steps[Math.floor(steps.length / 2)]!;
  const outX: number[] = [];
  const outColumns: (number | null)[][] = columns.map(() => []);
  for (let i = 0; i < x.length; i++) {
    if (i > 0 && usual > 0 && x[i]! - x[i - 1]! > usual * GAP_STEPS) {
      outX.push(x[i - 1]! + usual);
      for (const c of outColumns) c.push(null);
    }
    outX.push(x[i]!);
    columns.forEach((c, k) => outColumns[k]!.push(c[i] ?? null));
  }
  return { x: outX, columns: outColumns };
}

/**
 * The index the legend shows while the pointer is not on the chart: the latest point where any series has a value
 * (the trailing gaps of withGaps skipped), or null without any value. A phone never hovers: without it the legend
 * showed only dashes there.
 */
export function latestIndex(columns: readonly (readonly (number | null | undefined)[])[]): number | null {
  let latest: number | null = null;
  for (const c of columns) {
    for (let i = c.length - 1; i >= 0 && (latest === null || i > latest); i--) {
      if (c[i] !== null && c[i] !== undefined) {
        latest = i;
        break;
      }
    }
  }
  return latest;
}

/** The time axis' range: the last `span` seconds up to now (or to the last point, if later). */
export function timeRange(x: readonly number[], span: number, nowSec = Date.now() / 1000): [number, number] {
  const end = Math.max(nowSec, x.length ? x[x.length - 1]! : nowSec);
  return [end - span, end];
}

const DAY_S = 86_400;

/**
 * The time axis' labels, numeric in every locale (uPlot's own are English: "3am", "Mar"): HH:mm for ticks less than a
 * day apart (with MM-DD above the first one and above each new day), MM-DD for ticks days apart, YYYY-MM for ticks
 * months apart. `splits` are seconds; `incr` the seconds between ticks; `format` formats epoch ms (local time).
 */
export function timeLabels(splits: readonly number[], incr: number, format: (ms: number, pattern: string) => string): string[] {
  if (incr >= 28 * DAY_S) return splits.map((s) => format(s * 1000, 'YYYY-MM'));
  if (incr >= DAY_S) return splits.map((s) => format(s * 1000, 'MM-DD'));
  let day = '';
  return splits.map((s) => {
    const d = format(s * 1000, 'MM-DD');
    const time = format(s * 1000, 'HH:mm');
    if (d === day) return time;
    day = d;
    return `${time}\n${d}`;
  });
}
