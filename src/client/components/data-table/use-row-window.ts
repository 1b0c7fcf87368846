/**
 * Row windowing for fixed-height rows: only the rows inside the scroll viewport (plus overscan)
 * are rendered; spacer rows keep the scroll height right.
 */
import { useCallback, useEffect, useState, type RefObject } from 'react';
import { OVERSCAN_ROWS } from './data-table-types';

export interface RowWindow {
  /** First rendered row index (inclusive). */
  start: number;
  /** Last rendered row index (exclusive). */
  end: number;
  /** Height in px of the spacer above the rendered rows. */
  padTop: number;
  /** Height in px of the spacer below the rendered rows. */
  padBottom: number;
}

export interface RowWindowOptions {
  count: number;
  rowHeight: number;
  /** When false every row is rendered. */
  enabled: boolean;
  /** Viewport height used until (or when) the element reports none, e.g. in jsdom. */
  fallbackHeight: number;
  overscan?: number;
}

/** Pure window computation, exported for tests. */
export function computeRowWindow(
  count: number,
  rowHeight: number,
  scrollTop: number,
  viewportHeight: number,
  overscan: number = OVERSCAN_ROWS,
): RowWindow {
  if (count <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + Math.max(rowHeight, viewportHeight)) / rowHeight);
  const start = Math.max(0, Math.min(count - 1, first - overscan));
  const end = Math.min(count, Math.max(start + 1, last + overscan));
  return { start, end, padTop: start * rowHeight, padBottom: (count - end) * rowHeight };
}

export function useRowWindow(
  viewportRef: RefObject<HTMLElement | null>,
  { count, rowHeight, enabled, fallbackHeight, overscan = OVERSCAN_ROWS }: RowWindowOptions,
): { window: RowWindow; onScroll: () => void } {
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(fallbackHeight);

  useEffect(() => {
    const element = viewportRef.current;
    if (!enabled || !element) return undefined;
    const measure = () => setViewportHeight(element.clientHeight > 0 ? element.clientHeight : fallbackHeight);
    measure();
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [viewportRef, enabled, fallbackHeight]);

  const onScroll = useCallback(() => {
    const element = viewportRef.current;
    if (!element || !enabled) return;
    // Quantise to whole rows so that scrolling within a row does not re-render.
    const quantised = Math.floor(element.scrollTop / rowHeight) * rowHeight;
    setScrollTop(quantised);
  }, [viewportRef, enabled, rowHeight]);

  if (!enabled) return { window: { start: 0, end: count, padTop: 0, padBottom: 0 }, onScroll };
  return { window: computeRowWindow(count, rowHeight, scrollTop, viewportHeight + rowHeight, overscan), onScroll };
}
