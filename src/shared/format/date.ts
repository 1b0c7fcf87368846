/**
 * Date formatting and ranges (spec 1 §4, §9). Tiny and dependency-free; pure and isomorphic.
 *
 * Offsets are expressed in minutes EAST of UTC (local minus UTC): UTC+8 → 480, UTC-5 → -300.
 * This is the opposite sign of Date#getTimezoneOffset(); see browserOffsetMinutes().
 * When a function takes an optional `offsetMinutes`, leaving it out means "the runtime's local
 * time zone" (with its DST rules); passing it pins a fixed, DST-free offset.
 */

export const DATE_FORMATS = {
  /** YYYY-MM-DD HH:mm:ss */
  dateTime: 'YYYY-MM-DD HH:mm:ss',
  /** YYYY-MM-DD HH:mm */
  dateTimeMinute: 'YYYY-MM-DD HH:mm',
  /** MM-DD HH:mm */
  monthDayTime: 'MM-DD HH:mm',
  /** YYYY-MM-DD */
  date: 'YYYY-MM-DD',
  /** HH:mm:ss */
  time: 'HH:mm:ss',
  /** HH:mm */
  timeMinute: 'HH:mm',
} as const;

export type DateFormatName = keyof typeof DATE_FORMATS;

/** A Date, epoch milliseconds, or a string ('YYYY-MM-DD[ HH:mm[:ss[.SSS]]]' or anything Date.parse reads). */
export type DateInput = Date | number | string;

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** Shown for a missing or invalid date unless another fallback is given. */
export const EMPTY_DATE = '-';

const WALL_CLOCK = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?$/;

interface WallClock {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

function parseWallClock(text: string): WallClock | null {
  const m = WALL_CLOCK.exec(text.trim());
  if (!m) return null;
  const wall: WallClock = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    millisecond: Number((m[7] ?? '0').padEnd(3, '0')),
  };
  if (wall.month < 1 || wall.month > 12 || wall.day < 1 || wall.day > 31) return null;
  if (wall.hour > 23 || wall.minute > 59 || wall.second > 59) return null;
  // Reject dates such as 2023-02-30 that would roll over.
  const probe = new Date(Date.UTC(wall.year, wall.month - 1, wall.day));
  if (probe.getUTCDate() !== wall.day) return null;
  return wall;
}

function wallClockToNaiveMs(w: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
  return d.getTime();
}

/** Browser/runtime offset (minutes east of UTC) in effect at the given instant. */
export function browserOffsetMinutes(at: DateInput = Date.now()): number {
  const d = at instanceof Date ? at : new Date(typeof at === 'number' ? at : Date.parse(at));
  const offset = -(Number.isNaN(d.getTime()) ? new Date() : d).getTimezoneOffset();
  return offset === 0 ? 0 : offset; // avoid -0
}

/**
 * Reads a date input as an instant. A wall-clock string without zone ('2024-05-01 08:00:00')
 * is read in the given offset, or in local time when the offset is left out. Returns null when invalid.
 */
export function parseDate(input: DateInput | null | undefined, offsetMinutes?: number): Date | null {
  if (input === null || input === undefined || input === '') return null;
  if (input instanceof Date) return Number.isNaN(input.getTime()) ? null : new Date(input.getTime());
  if (typeof input === 'number') return Number.isFinite(input) ? new Date(input) : null;
  const wall = parseWallClock(input);
  if (wall) {
    if (offsetMinutes !== undefined) return new Date(wallClockToNaiveMs(wall) - offsetMinutes * MINUTE_MS);
    const local = new Date(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
    if (wall.year < 100) local.setFullYear(wall.year);
    return local;
  }
  if (WALL_CLOCK.test(input.trim())) return null; // right shape, impossible values (2023-02-30)
  const ms = Date.parse(input);
  return Number.isNaN(ms) ? null : new Date(ms);
}

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

const TOKEN = /\[([^\]]*)]|YYYY|SSS|MM|DD|HH|mm|ss/g;

export interface FormatDateOptions {
  /** Fixed offset (minutes east of UTC) in which to show the instant; local time when left out. */
  offsetMinutes?: number;
  /** Returned for null, undefined, '' or invalid input. Default '-'. */
  fallback?: string;
}

/**
 * Formats a date with the tokens YYYY, MM, DD, HH, mm, ss, SSS; text in [brackets] is literal.
 * Defaults to 'YYYY-MM-DD HH:mm:ss'.
 */
export function formatDate(
  input: DateInput | null | undefined,
  format: string = DATE_FORMATS.dateTime,
  options: FormatDateOptions = {},
): string {
  const { offsetMinutes, fallback = EMPTY_DATE } = options;
  const date = parseDate(input, offsetMinutes);
  if (!date) return fallback;
  let year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number;
  if (offsetMinutes === undefined) {
    year = date.getFullYear();
    month = date.getMonth() + 1;
    day = date.getDate();
    hour = date.getHours();
    minute = date.getMinutes();
    second = date.getSeconds();
    ms = date.getMilliseconds();
  } else {
    const shifted = new Date(date.getTime() + offsetMinutes * MINUTE_MS);
    year = shifted.getUTCFullYear();
    month = shifted.getUTCMonth() + 1;
    day = shifted.getUTCDate();
    hour = shifted.getUTCHours();
    minute = shifted.getUTCMinutes();
    second = shifted.getUTCSeconds();
    ms = shifted.getUTCMilliseconds();
  }
  return format.replace(TOKEN, (token: string, literal: string | undefined) => {
    if (literal !== undefined) return literal;
    switch (token) {
      case 'YYYY':
        return (year < 0 ? '-' : '') + pad(year, 4);
      case 'MM':
        return pad(month);
      case 'DD':
        return pad(day);
      case 'HH':
        return pad(hour);
      case 'mm':
        return pad(minute);
      case 'ss':
        return pad(second);
      case 'SSS':
        return pad(ms, 3);
      default:
        return token;
    }
  });
}

/**
 * Converts a UTC wall-clock value (e.g. a server `createdAt` '2024-05-01 00:30:00') to local
 * wall-clock text. `offsetMinutes` is the local offset east of UTC; when left out the runtime's
 * offset at that instant is used.
 */
export function utcToLocal(
  input: DateInput | null | undefined,
  offsetMinutes?: number,
  format: string = DATE_FORMATS.dateTime,
): string {
  const instant = parseDate(input, 0);
  if (!instant) return EMPTY_DATE;
  return formatDate(instant, format, { offsetMinutes: offsetMinutes ?? browserOffsetMinutes(instant) });
}

/**
 * Converts a local wall-clock value to UTC wall-clock text (for sending to the server).
 * `offsetMinutes` is the local offset east of UTC; when left out the runtime's local zone is used.
 */
export function localToUtc(
  input: DateInput | null | undefined,
  offsetMinutes?: number,
  format: string = DATE_FORMATS.dateTime,
): string {
  const instant = parseDate(input, offsetMinutes);
  if (!instant) return EMPTY_DATE;
  return formatDate(instant, format, { offsetMinutes: 0 });
}

/** Start of the day (00:00:00.000) containing `at`, in local time or in the given fixed offset. */
export function startOfDay(at: DateInput = Date.now(), offsetMinutes?: number): Date {
  const date = parseDate(at, offsetMinutes) ?? new Date();
  if (offsetMinutes === undefined) {
    const local = new Date(date.getTime());
    local.setHours(0, 0, 0, 0);
    return local;
  }
  const shifted = date.getTime() + offsetMinutes * MINUTE_MS;
  const midnight = Math.floor(shifted / DAY_MS) * DAY_MS;
  return new Date(midnight - offsetMinutes * MINUTE_MS);
}

/** Midnight `days` calendar days after (negative: before) the day containing `at`. */
export function addDaysFromMidnight(at: DateInput, days: number, offsetMinutes?: number): Date {
  const start = startOfDay(at, offsetMinutes);
  if (offsetMinutes === undefined) {
    const local = new Date(start.getTime());
    local.setDate(local.getDate() + days); // calendar arithmetic keeps local DST correct
    local.setHours(0, 0, 0, 0);
    return local;
  }
  return new Date(start.getTime() + days * DAY_MS);
}

export const QUICK_RANGES = ['today', 'lastThreeDay', 'lastWeek'] as const;
export type QuickRangeName = (typeof QUICK_RANGES)[number];

const QUICK_RANGE_DAYS: Readonly<Record<QuickRangeName, number>> = {
  today: 0,
  lastThreeDay: 2,
  lastWeek: 6,
};

/**
 * Quick date ranges [start, end] (spec 1 §9): today = [today 00:00, now];
 * lastThreeDay = [midnight two days ago, now]; lastWeek = [midnight six days ago, now].
 */
export function quickRange(name: QuickRangeName, now: DateInput = Date.now(), offsetMinutes?: number): [Date, Date] {
  const end = parseDate(now, offsetMinutes) ?? new Date();
  return [addDaysFromMidnight(end, -QUICK_RANGE_DAYS[name], offsetMinutes), end];
}

/** Every quick range at once, e.g. for a date-range picker's presets. */
export function quickRanges(now: DateInput = Date.now(), offsetMinutes?: number): Record<QuickRangeName, [Date, Date]> {
  return {
    today: quickRange('today', now, offsetMinutes),
    lastThreeDay: quickRange('lastThreeDay', now, offsetMinutes),
    lastWeek: quickRange('lastWeek', now, offsetMinutes),
  };
}

/**
 * The "recent date" rule (spec 1 §4): a date is recent when it lies within the last 3 days up to
 * tomorrow, i.e. now − 3 days ≤ date ≤ now + 1 day (both ends inclusive). Invalid input is not recent.
 */
export function isRecentDate(input: DateInput | null | undefined, now: DateInput = Date.now()): boolean {
  const date = parseDate(input);
  const reference = parseDate(now);
  if (!date || !reference) return false;
  const t = date.getTime();
  const n = reference.getTime();
  return t >= n - 3 * DAY_MS && t <= n + DAY_MS;
}
