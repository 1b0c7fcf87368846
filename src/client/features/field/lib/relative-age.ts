/** "2 min ago" in the interface language (Intl.RelativeTimeFormat), from an epoch-ms time. */
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

export function relativeAge(at: number, locale: string, now = Date.now()): string {
  let value = (at - now) / 1000;
  const fmt = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  if (Math.abs(value) < 45) return fmt.format(0, 'second');
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return fmt.format(Math.round(value), unit);
    value /= size;
  }
  return fmt.format(Math.round(value), 'year');
}
