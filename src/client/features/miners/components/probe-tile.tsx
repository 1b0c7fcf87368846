/** One miner on the probe wall: its IP and hottest chip reading, coloured by band (safe below 80 °C). */
import { memo } from 'react';
import { Paper, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { MinerRow } from '@shared/schemas/miner';

export type TempUnit = 'C' | 'F' | 'K';

/** °C to the chosen unit (spec 3 §9: Celsius, Fahrenheit, Kelvin). */
export function convertTemp(c: number, unit: TempUnit): number {
  if (unit === 'F') return c * 1.8 + 32;
  if (unit === 'K') return c + 273.15;
  return c;
}

export function tempText(c: number | null, unit: TempUnit): string {
  if (c === null) return '-';
  const v = convertTemp(c, unit);
  return unit === 'K' ? `${v.toFixed(1)} K` : `${Math.round(v)} °${unit}`;
}

/** From this chip temperature (°C) on, a miner counts as hot (bands `hot` and `critical`). */
export const HOT_FROM_C = 85;

/** Band of a chip temperature, °C. */
export function tempBand(c: number | null): 'none' | 'ok' | 'warm' | 'hot' | 'critical' {
  if (c === null) return 'none';
  if (c >= 90) return 'critical';
  if (c >= HOT_FROM_C) return 'hot';
  if (c >= 80) return 'warm';
  return 'ok';
}

const BAND_COLOR = { none: 'gray', ok: 'teal', warm: 'yellow', hot: 'orange', critical: 'red' } as const;

export const ProbeTile = memo(function ProbeTile({ m, unit }: { m: MinerRow; unit: TempUnit }) {
  const band = tempBand(m.tempChipMax);
  const color = BAND_COLOR[band];
  return (
    <Paper
      component={Link}
      to={`/device/miner/detail?ip=${encodeURIComponent(m.ip)}`}
      p={6}
      radius="sm"
      withBorder
      data-testid="probe-tile"
      data-band={band}
      style={{ borderColor: `var(--mantine-color-${color}-6)`, background: `var(--mantine-color-${color}-light)`, textDecoration: 'none', color: 'inherit', minWidth: 0 }}
    >
      <Text size="xs" c="dimmed" truncate>
        {m.ip}
      </Text>
      <Text fw={700} size="sm" data-testid="probe-temp">
        {tempText(m.tempChipMax, unit)}
      </Text>
    </Paper>
  );
});
