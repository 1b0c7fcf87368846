/**
 * The dashboard's real vs ideal hashrate chart (uPlot): fills its container's width (ResizeObserver, so it
 * fits a 360 px phone), x in seconds since the epoch, gaps where a cycle is missing.
 */
import { useEffect, useRef } from 'react';
import { Box } from '@mantine/core';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface FarmHashrateChartProps {
  x: number[];
  real: (number | null)[];
  ideal: (number | null)[];
  labels: { real: string; ideal: string };
  format: (ghs: number) => string;
  axisFormat: (ghs: number) => string;
  height?: number;
  ariaLabel: string;
}

export function FarmHashrateChart({ x, real, ideal, labels, format, axisFormat, height = 260, ariaLabel }: FarmHashrateChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const width = () => Math.max(200, el.clientWidth);
    const value = (_u: uPlot, v: number | null) => (v === null || v === undefined ? '-' : format(v));
    const plot = new uPlot(
      {
        width: width(),
        height,
        legend: { show: true },
        cursor: { drag: { x: true, y: false } },
        scales: { x: { time: true } },
        series: [
          {},
          { label: labels.real, stroke: '#1c7ed6', fill: '#1c7ed622', width: 2, spanGaps: false, value },
          { label: labels.ideal, stroke: '#868e96', dash: [6, 4], width: 2, spanGaps: false, value },
        ],
        axes: [
          { stroke: 'var(--mantine-color-dimmed)', grid: { stroke: 'rgba(128,128,128,0.15)' } },
          { size: 72, stroke: 'var(--mantine-color-dimmed)', grid: { stroke: 'rgba(128,128,128,0.15)' }, values: (_u, splits) => splits.map(axisFormat) },
        ],
      },
      [x, real, ideal] as uPlot.AlignedData,
      el,
    );
    let observer: ResizeObserver | null = null;
    if (typeof ResizeObserver !== 'undefined') {
      observer = new ResizeObserver(() => plot.setSize({ width: width(), height }));
      observer.observe(el);
    }
    return () => {
      observer?.disconnect();
      plot.destroy();
    };
  }, [x, real, ideal, labels, format, axisFormat, height]);

  return <Box ref={box} w="100%" style={{ minWidth: 0, overflow: 'hidden' }} data-testid="dashboard-chart" role="img" aria-label={ariaLabel} />;
}
