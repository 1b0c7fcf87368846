import { describe, expect, it } from 'vitest';
import { formatDate } from '@shared/format/date';
import { latestIndex, showPoints, timeLabels, timeRange, valueRange, withGaps } from './chart-axes';

describe('chart axis ranges', () => {
  it('shows the whole window up to now, whatever the points cover', () => {
    const now = 1_800_000_000;
    expect(timeRange([now - 30], 3600, now)).toEqual([now - 3600, now]); // a farm that began a minute ago: one point at the right end
    expect(timeRange([], 86_400, now)).toEqual([now - 86_400, now]);
    expect(timeRange([now - 7200, now + 60], 3600, now)).toEqual([now + 60 - 3600, now + 60]); // a point ahead of this clock
  });

  it('starts counts and hashrates at 0, with room above the highest', () => {
    expect(valueRange(49_100_000, 49_100_000, true)).toEqual([0, 49_100_000 * 1.1]);
    expect(valueRange(0, 0, true)).toEqual([0, 1]);
    expect(valueRange(null, null, true)).toEqual([0, 1]);
  });

  it('widens a flat series so its ticks differ, and pads a varied one', () => {
    const [lo, hi] = valueRange(65, 65, false);
    expect(hi - lo).toBeCloseTo(6.5);
    expect((lo + hi) / 2).toBe(65);
    expect(valueRange(0, 0, false)).toEqual([-0.5, 0.5]);
    expect(valueRange(40, 80, false)).toEqual([36, 84]);
  });
});

describe('points of a series', () => {
  it('are drawn when a line would be too short to see, or when they are spaced out, and not on a dense line', () => {
    // a farm's first three minutes on a 24-hour chart 1,000 px wide: three points within 2 px at the right end
    expect(showPoints(3, 2, 6)).toBe(true);
    // one point: no line at all
    expect(showPoints(1, 0, 6)).toBe(true);
    // an hour of minutes on the dashboard's hour chart: 60 points over 1,000 px
    expect(showPoints(60, 1000, 6)).toBe(true);
    // an hour of minutes on the 24-hour chart (~42 px) and a full day (1,440 over 1,000 px): the line alone
    expect(showPoints(60, 42, 6)).toBe(false);
    expect(showPoints(1440, 1000, 6)).toBe(false);
    expect(showPoints(0, 0, 6)).toBe(false);
  });
});

describe('gaps in a series', () => {
  it('breaks the line where the points stop for more than three usual steps, and only there', () => {
    // minutes 0–4, an outage, minutes 20–22
    const x = [0, 60, 120, 180, 240, 1200, 1260, 1320];
    const got = withGaps(x, [[1, 2, 3, 4, 5, 6, 7, 8], [9, 9, 9, 9, 9, 9, 9, null]]);
    expect(got.x).toEqual([0, 60, 120, 180, 240, 300, 1200, 1260, 1320]);
    expect(got.columns).toEqual([
      [1, 2, 3, 4, 5, null, 6, 7, 8],
      [9, 9, 9, 9, 9, null, 9, 9, null],
    ]);
  });

  it('follows the poll interval of the farm, and lets a late or skipped reading pass', () => {
    // a reading every 5 minutes, one skipped (10 minutes), then an hour without
    const x = [0, 300, 600, 1200, 1500, 5100, 5400];
    const got = withGaps(x, [x.map(() => 1)]);
    expect(got.x).toEqual([0, 300, 600, 1200, 1500, 1800, 5100, 5400]);
    expect(got.columns[0]!.filter((v) => v === null)).toHaveLength(1);
  });

  it('returns fewer than three points, and evenly spaced ones, as they are', () => {
    expect(withGaps([0, 86_400], [[1, 2]])).toEqual({ x: [0, 86_400], columns: [[1, 2]] });
    expect(withGaps([], [[]])).toEqual({ x: [], columns: [[]] });
    const even = [0, 3600, 7200, 10_800];
    expect(withGaps(even, [[1, 2, 3, 4]]).x).toEqual(even);
  });
});

describe('legend index without the pointer', () => {
  it('is the latest point where any series has a value', () => {
    expect(latestIndex([[1, 2, 3], [4, 5, null]])).toBe(2);
    expect(latestIndex([[1, 2, null], [4, null, null]])).toBe(1);
  });
  it('is null without any value', () => {
    expect(latestIndex([])).toBeNull();
    expect(latestIndex([[null, null], []])).toBeNull();
  });
});

describe('time axis labels', () => {
  // A fixed offset (UTC) keeps the test independent of the machine's time zone.
  const fmt = (ms: number, pattern: string) => formatDate(ms, pattern, { offsetMinutes: 0 });
  const at = (iso: string) => Date.parse(iso) / 1000;

  it('shows hours and minutes, with the date above the first tick and above each new day', () => {
    const splits = [at('2026-11-22T22:00:00Z'), at('2026-11-22T23:00:00Z'), at('2026-11-23T00:00:00Z'), at('2026-11-23T01:00:00Z')];
    expect(timeLabels(splits, 3600, fmt)).toEqual(['22:00\n11-22', '23:00', '00:00\n11-23', '01:00']);
  });

  it('shows month-day for days and year-month for months, never English words', () => {
    expect(timeLabels([at('2026-11-20T00:00:00Z'), at('2026-11-27T00:00:00Z')], 7 * 86_400, fmt)).toEqual(['11-20', '11-27']);
    expect(timeLabels([at('2026-01-01T00:00:00Z'), at('2026-04-01T00:00:00Z')], 90 * 86_400, fmt)).toEqual(['2026-01', '2026-04']);
  });
});
