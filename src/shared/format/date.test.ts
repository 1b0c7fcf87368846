import { describe, expect, it } from 'vitest';
import {
  DATE_FORMATS,
  DAY_MS,
  addDaysFromMidnight,
  browserOffsetMinutes,
  formatDate,
  isRecentDate,
  localToUtc,
  parseDate,
  quickRange,
  quickRanges,
  startOfDay,
  utcToLocal,
} from './date';

// 2024-03-05T16:07:09.045Z
const INSTANT = Date.UTC(2024, 2, 5, 16, 7, 9, 45);

describe('formatDate', () => {
  it('supports every format of spec 1 §9 in a fixed offset', () => {
    const opts = { offsetMinutes: 0 };
    expect(formatDate(INSTANT, DATE_FORMATS.dateTime, opts)).toBe('2024-03-05 16:07:09');
    expect(formatDate(INSTANT, DATE_FORMATS.dateTimeMinute, opts)).toBe('2024-03-05 16:07');
    expect(formatDate(INSTANT, DATE_FORMATS.monthDayTime, opts)).toBe('03-05 16:07');
    expect(formatDate(INSTANT, DATE_FORMATS.date, opts)).toBe('2024-03-05');
    expect(formatDate(INSTANT, DATE_FORMATS.time, opts)).toBe('16:07:09');
    expect(formatDate(INSTANT, DATE_FORMATS.timeMinute, opts)).toBe('16:07');
    expect(formatDate(INSTANT, 'HH:mm:ss.SSS [at] YYYY', opts)).toBe('16:07:09.045 at 2024');
  });

  it('defaults to YYYY-MM-DD HH:mm:ss in local time', () => {
    const local = new Date(2024, 0, 2, 3, 4, 5);
    expect(formatDate(local)).toBe('2024-01-02 03:04:05');
    expect(formatDate('2024-01-02 03:04:05')).toBe('2024-01-02 03:04:05');
  });

  it('crosses midnight and year ends with positive and negative offsets', () => {
    const newYear = Date.UTC(2024, 0, 1, 0, 0, 0);
    expect(formatDate(newYear, DATE_FORMATS.dateTime, { offsetMinutes: 480 })).toBe('2024-01-01 08:00:00');
    expect(formatDate(newYear, DATE_FORMATS.dateTime, { offsetMinutes: -300 })).toBe('2023-12-31 19:00:00');
    expect(formatDate(newYear, DATE_FORMATS.dateTime, { offsetMinutes: -570 })).toBe('2023-12-31 14:30:00');
    expect(formatDate(newYear, DATE_FORMATS.dateTime, { offsetMinutes: 345 })).toBe('2024-01-01 05:45:00');
  });

  it('returns the fallback for missing or invalid input', () => {
    expect(formatDate(null)).toBe('-');
    expect(formatDate(undefined)).toBe('-');
    expect(formatDate('')).toBe('-');
    expect(formatDate('not a date')).toBe('-');
    expect(formatDate('2023-02-30 10:00:00')).toBe('-');
    expect(formatDate('2023-01-01 24:00:00')).toBe('-');
    expect(formatDate(Number.NaN, DATE_FORMATS.date, { fallback: '' })).toBe('');
  });

  it('reads ISO strings with a zone', () => {
    expect(formatDate('2024-03-05T16:07:09Z', DATE_FORMATS.dateTime, { offsetMinutes: 60 })).toBe('2024-03-05 17:07:09');
  });
});

describe('parseDate', () => {
  it('reads wall-clock strings in a given offset', () => {
    expect(parseDate('2024-03-05 16:07:09', 0)?.getTime()).toBe(Date.UTC(2024, 2, 5, 16, 7, 9));
    expect(parseDate('2024-03-05 16:07', 480)?.getTime()).toBe(Date.UTC(2024, 2, 5, 8, 7));
    expect(parseDate('2024-03-05', -300)?.getTime()).toBe(Date.UTC(2024, 2, 5, 5, 0));
    expect(parseDate('2024-03-05T16:07:09.5', 0)?.getTime()).toBe(Date.UTC(2024, 2, 5, 16, 7, 9, 500));
  });
});

describe('utcToLocal / localToUtc', () => {
  it('converts UTC wall clock to local wall clock by offset', () => {
    expect(utcToLocal('2024-03-05 16:07:09', 480)).toBe('2024-03-06 00:07:09');
    expect(utcToLocal('2024-03-01 02:00:00', -300)).toBe('2024-02-29 21:00:00');
    expect(utcToLocal('2024-03-05 00:00:00', 0, DATE_FORMATS.dateTimeMinute)).toBe('2024-03-05 00:00');
  });

  it('converts local wall clock back to UTC', () => {
    expect(localToUtc('2024-03-06 00:07:09', 480)).toBe('2024-03-05 16:07:09');
    expect(localToUtc('2024-02-29 21:00:00', -300)).toBe('2024-03-01 02:00:00');
    expect(localToUtc('2024-01-01 00:00:00', -570)).toBe('2024-01-01 09:30:00');
  });

  it('round-trips for many offsets (DST-free arithmetic)', () => {
    for (const offset of [-720, -570, -300, -60, 0, 60, 330, 345, 480, 765, 840]) {
      const utc = '2024-12-31 23:59:59';
      expect(localToUtc(utcToLocal(utc, offset), offset)).toBe(utc);
    }
  });

  it('uses the runtime offset when none is given', () => {
    const utc = '2024-06-15 12:00:00';
    const offset = browserOffsetMinutes(Date.UTC(2024, 5, 15, 12));
    expect(utcToLocal(utc)).toBe(utcToLocal(utc, offset));
    expect(localToUtc(utcToLocal(utc))).toBe(utc);
  });

  it('gives - for invalid input', () => {
    expect(utcToLocal('garbage', 0)).toBe('-');
    expect(localToUtc(null, 0)).toBe('-');
  });

  it('browserOffsetMinutes is the negated getTimezoneOffset', () => {
    const d = new Date(2024, 0, 15);
    expect(browserOffsetMinutes(d)).toBe(-d.getTimezoneOffset() || 0);
  });
});

describe('startOfDay / addDaysFromMidnight', () => {
  it('finds midnight in a fixed offset, including just before and after midnight', () => {
    // 2024-03-05 23:59:59.999 at UTC+8
    const justBefore = Date.UTC(2024, 2, 5, 15, 59, 59, 999);
    expect(startOfDay(justBefore, 480).getTime()).toBe(Date.UTC(2024, 2, 4, 16));
    // 2024-03-06 00:00:00.000 at UTC+8
    const atMidnight = Date.UTC(2024, 2, 5, 16);
    expect(startOfDay(atMidnight, 480).getTime()).toBe(atMidnight);
    // negative offset: 2024-03-05 20:00 at UTC-5 is 2024-03-06 01:00Z
    expect(startOfDay(Date.UTC(2024, 2, 6, 1), -300).getTime()).toBe(Date.UTC(2024, 2, 5, 5));
  });

  it('finds local midnight', () => {
    const start = startOfDay(new Date(2024, 6, 10, 13, 45));
    expect([start.getFullYear(), start.getMonth(), start.getDate(), start.getHours(), start.getMinutes()]).toEqual([2024, 6, 10, 0, 0]);
    const back = addDaysFromMidnight(new Date(2024, 2, 1, 9), -2);
    expect([back.getMonth(), back.getDate(), back.getHours()]).toEqual([1, 28, 0]);
  });
});

describe('quickRange', () => {
  const now = Date.UTC(2024, 2, 5, 10, 30); // 2024-03-05 18:30 at UTC+8

  it('today starts at midnight and ends now', () => {
    const [start, end] = quickRange('today', now, 480);
    expect(formatDate(start, DATE_FORMATS.dateTime, { offsetMinutes: 480 })).toBe('2024-03-05 00:00:00');
    expect(end.getTime()).toBe(now);
  });

  it('lastThreeDay starts at midnight two days ago', () => {
    const [start, end] = quickRange('lastThreeDay', now, 480);
    expect(formatDate(start, DATE_FORMATS.dateTime, { offsetMinutes: 480 })).toBe('2024-03-03 00:00:00');
    expect(end.getTime()).toBe(now);
  });

  it('lastWeek starts at midnight six days ago, across a month end and a negative offset', () => {
    const [start] = quickRange('lastWeek', now, -300);
    expect(formatDate(start, DATE_FORMATS.dateTime, { offsetMinutes: -300 })).toBe('2024-02-28 00:00:00');
  });

  it('at exactly midnight today starts now', () => {
    const midnight = Date.UTC(2024, 2, 4, 16); // 2024-03-05 00:00 at UTC+8
    const [start, end] = quickRange('today', midnight, 480);
    expect(start.getTime()).toBe(midnight);
    expect(end.getTime()).toBe(midnight);
  });

  it('works in local time and lists all ranges', () => {
    const localNow = new Date(2024, 4, 20, 15, 0);
    const all = quickRanges(localNow);
    expect(all.today[0].getDate()).toBe(20);
    expect(all.lastThreeDay[0].getDate()).toBe(18);
    expect(all.lastWeek[0].getDate()).toBe(14);
    expect(all.lastWeek[0].getHours()).toBe(0);
    expect(all.lastWeek[1].getTime()).toBe(localNow.getTime());
  });
});

describe('isRecentDate', () => {
  const now = Date.UTC(2024, 2, 5, 12);

  it('accepts dates from 3 days ago up to tomorrow', () => {
    expect(isRecentDate(now, now)).toBe(true);
    expect(isRecentDate(now - 3 * DAY_MS, now)).toBe(true);
    expect(isRecentDate(now + DAY_MS, now)).toBe(true);
    expect(isRecentDate(now - 2 * DAY_MS, now)).toBe(true);
  });

  it('rejects older, later and invalid dates', () => {
    expect(isRecentDate(now - 3 * DAY_MS - 1, now)).toBe(false);
    expect(isRecentDate(now + DAY_MS + 1, now)).toBe(false);
    expect(isRecentDate(null, now)).toBe(false);
    expect(isRecentDate('nope', now)).toBe(false);
  });
});
