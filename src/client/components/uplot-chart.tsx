/**
 * A uPlot time-series chart that fills its container's width (ResizeObserver, so it fits a 360 px phone) and is
 * rebuilt when its data or series change. x values are seconds since the epoch; missing points are null (gaps).
 *
 * The time axis spans the chart's window (the last hour, day, 30 days … up to now) whatever the points cover: a farm
 * that started reporting a minute ago shows one point at the right end of its hour, not an axis stretched around
 * that point into years. A value axis never repeats a label: a flat series (every miner steady) gets a range wide
 * enough for distinct ticks, and counts and hashrates start at 0. A series whose points in view lie too close together
 * to show a line (a farm's first minutes on a 24-hour or 30-day chart) is drawn with its points (showPoints). Where
 * the points stop for a while (an outage of the agent or the server) the line is broken, not drawn through the time
 * without data (withGaps). While the pointer is not on the chart (always, on a phone) the legend shows the latest
 * values, not dashes.
 */
import { useEffect, useRef } from 'react';
import { Box } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatDate } from '@shared/format/date';
import { latestIndex, showPoints, timeLabels, timeRange, valueRange, withGaps } from './chart-axes';

/** Space between points (CSS px) from which a series is drawn with its points, and their diameter. */
const POINT_SPACE = 6;
const POINT_SIZE = 6;

/** uPlot's `points.show` (showPoints): the extent is measured between the first and the last point in view, in CSS px. */
function pointsShow(u: uPlot): boolean {
  const x = u.series[0];
  const xs = u.data[0];
  const [i0, i1] = x?.idxs ?? [0, -1];
  if (!x || i1 < i0) return false;
  const extent = Math.abs(u.valToPos(xs[i1]!, 'x') - u.valToPos(xs[i0]!, 'x'));
  return showPoints(i1 - i0 + 1, extent, POINT_SPACE);
}

export interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
  /** Scale id: series on the same scale share an axis (default 'y'). */
  scale?: string;
  fill?: boolean;
  dash?: boolean;
}

/** A value axis: its labels one tick at a time (`format`) or all at once (`ticks`, e.g. in one unit: formatHashrateTicks). */
export type ChartAxis = {
  scale: string;
  side: 'left' | 'right';
  size?: number;
  /** The axis starts at 0 (hashrates, counts); else it follows the values (temperatures). */
  zero?: boolean;
} & ({ format: (v: number) => string; ticks?: never } | { ticks: (splits: number[]) => string[]; format?: never });

export interface UplotChartProps {
  x: number[];
  series: ChartSeries[];
  axes: ChartAxis[];
  /** Value text of the legend / cursor per scale. */
  valueFormat?: Record<string, (v: number) => string>;
  height?: number;
  testId?: string;
  ariaLabel: string;
  /** The time window shown, in seconds up to now (or up to the last point, if later). */
  span?: number;
}

export function UplotChart({ x, series, axes, valueFormat, height = 260, testId, ariaLabel, span }: UplotChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const { t } = useTranslation('common');
  const timeLabel = t('chart.time');

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const width = () => Math.max(200, el.clientWidth);
    // Axis text is drawn on a canvas, which does not resolve CSS variables (a "var(…)" colour is ignored there and the
    // text took whatever fill came before it, e.g. the faint series fill): the theme's colour is read here.
    const axisColor = getComputedStyle(el).getPropertyValue('--mantine-color-dimmed').trim() || '#868e96';
    const data = withGaps(x, series.map((s) => s.values));
    const latest = latestIndex(data.columns);
    // uPlot clears the legend when the cursor leaves (and before it ever comes): the latest values instead.
    const legendAtLatest = (u: uPlot) => {
      if (u.cursor.idx === null || u.cursor.idx === undefined) {
        if (latest !== null) u.setLegend({ idx: latest }, false);
      }
    };
    const opts: uPlot.Options = {
      width: width(),
      height,
      legend: { show: true },
      hooks: { setLegend: [legendAtLatest], ready: [legendAtLatest] },
      cursor: { drag: { x: true, y: false } },
      scales: {
        // Auto-ranging starts at the first point (uPlot stretches a single point's range to 1,000 days when x is in
        // seconds); a range dragged with the cursor does not, and is kept.
        x: span === undefined ? { time: true } : { time: true, range: (_u, min, max) => (x.length === 0 || min === x[0] ? timeRange(x, span) : [min, max]) },
        ...Object.fromEntries(axes.map((a) => [a.scale, { range: (_u: uPlot, min: number | null, max: number | null) => valueRange(min, max, a.zero === true) }])),
      },
      series: [
        { label: timeLabel, value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? '-' : formatDate(v * 1000, 'YYYY-MM-DD HH:mm')) },
        ...series.map((s) => {
          const fmt = valueFormat?.[s.scale ?? 'y'];
          return {
            label: s.label,
            stroke: s.color,
            width: 2,
            scale: s.scale ?? 'y',
            spanGaps: false,
            points: { show: pointsShow, size: POINT_SIZE, space: POINT_SPACE },
            ...(s.fill ? { fill: `${s.color}22` } : {}),
            ...(s.dash ? { dash: [6, 4] } : {}),
            value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? '-' : fmt ? fmt(v) : String(v)),
          };
        }),
      ],
      axes: [
        {
          stroke: axisColor,
          grid: { stroke: 'rgba(128,128,128,0.15)' },
          values: (_u: uPlot, splits: number[], _axis: number, _space: number, incr: number) => timeLabels(splits, incr, formatDate),
        },
        ...axes.map((a, i) => ({
          scale: a.scale,
          side: a.side === 'left' ? 3 : 1,
          size: a.size ?? 70,
          stroke: axisColor,
          grid: { show: i === 0, stroke: 'rgba(128,128,128,0.15)' },
          values: (_u: uPlot, splits: number[]) => (a.ticks ? a.ticks(splits) : splits.map((v) => a.format(v))),
        })),
      ],
    };
    const plot = new uPlot(opts, [data.x, ...data.columns] as uPlot.AlignedData, el);
    let observer: ResizeObserver | null = null;
    if (typeof ResizeObserver !== 'undefined') {
      observer = new ResizeObserver(() => plot.setSize({ width: width(), height }));
      observer.observe(el);
    }
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [x, series, axes, valueFormat, height, span, timeLabel]);

  return <Box ref={box} w="100%" style={{ minWidth: 0, overflow: 'hidden' }} data-testid={testId} role="img" aria-label={ariaLabel} />;
}
