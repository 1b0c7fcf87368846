/**
 * A uPlot time-series chart that fills its container's width (ResizeObserver) and is rebuilt when its
 * data or series change. x values are seconds since the epoch; missing points are null (gaps).
 */
import { useEffect, useRef } from 'react';
import { Box } from '@mantine/core';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  color: string;
  values: (number | null)[];
  /** Scale id: series on the same scale share an axis (default 'y'). */
  scale?: string;
  fill?: boolean;
  dash?: boolean;
}

export interface ChartAxis {
  scale: string;
  side: 'left' | 'right';
  format: (v: number) => string;
  size?: number;
}

export interface UplotChartProps {
  x: number[];
  series: ChartSeries[];
  axes: ChartAxis[];
  /** Value text of the legend / cursor per scale. */
  valueFormat?: Record<string, (v: number) => string>;
  height?: number;
  testId?: string;
  ariaLabel: string;
}

export function UplotChart({ x, series, axes, valueFormat, height = 260, testId, ariaLabel }: UplotChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const width = () => Math.max(200, el.clientWidth);
    const opts: uPlot.Options = {
      width: width(),
      height,
      legend: { show: true },
      cursor: { drag: { x: true, y: false } },
      scales: { x: { time: true } },
      series: [
        {},
        ...series.map((s) => {
          const fmt = valueFormat?.[s.scale ?? 'y'];
          return {
            label: s.label,
            stroke: s.color,
            width: 2,
            scale: s.scale ?? 'y',
            spanGaps: false,
            ...(s.fill ? { fill: `${s.color}22` } : {}),
            ...(s.dash ? { dash: [6, 4] } : {}),
            value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? '-' : fmt ? fmt(v) : String(v)),
          };
        }),
      ],
      axes: [
        { stroke: 'var(--mantine-color-dimmed)', grid: { stroke: 'rgba(128,128,128,0.15)' } },
        ...axes.map((a, i) => ({
          scale: a.scale,
          side: a.side === 'left' ? 3 : 1,
          size: a.size ?? 70,
          stroke: 'var(--mantine-color-dimmed)',
          grid: { show: i === 0, stroke: 'rgba(128,128,128,0.15)' },
          values: (_u: uPlot, splits: number[]) => splits.map((v) => a.format(v)),
        })),
      ],
    };
    const plot = new uPlot(opts, [x, ...series.map((s) => s.values)] as uPlot.AlignedData, el);
    let observer: ResizeObserver | null = null;
    if (typeof ResizeObserver !== 'undefined') {
      observer = new ResizeObserver(() => plot.setSize({ width: width(), height }));
      observer.observe(el);
    }
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [x, series, axes, valueFormat, height]);

  return <Box ref={box} w="100%" style={{ minWidth: 0, overflow: 'hidden' }} data-testid={testId} role="img" aria-label={ariaLabel} />;
}
