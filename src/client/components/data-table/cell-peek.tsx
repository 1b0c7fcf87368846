/**
 * The whole text of a cell its column cuts off (one line, ellipsis). A rendered cell (badges, links, several values)
 * has no title of its own, and a finger never hovers:
 * - when the pointer first rests on a cut cell, the cell gets the text as its title (the desktop's tooltip);
 * - a tap or click on a cut cell of a table whose rows open nothing shows the text in a bubble by the cell, selectable
 *   to copy (a long pool URL, a remark), until the next tap elsewhere, a scroll or Escape.
 * Cells are measured only when touched: thousands of rows scroll through the table.
 */
import { useCallback, useEffect, useState, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { Portal } from '@mantine/core';
import classes from './data-table.module.css';

interface Peek {
  text: string;
  /** The cell's box on the screen. */
  rect: { top: number; bottom: number; left: number };
}

/** Margin to the screen's edges and the bubble's widest (px). */
const EDGE = 8;
const MAX_WIDTH = 360;
/** Room the bubble wants under the cell before it opens above it instead (px). */
const ROOM_BELOW = 140;

/** The element's content overflows its box (cut by the cell's one line, or by a line clamp inside it). */
const overflows = (el: Element) =>
  el instanceof HTMLElement && ((el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) || (el.clientHeight > 0 && el.scrollHeight > el.clientHeight + 1));

/** The cell or something in it shows less than its text. */
const isCut = (cell: HTMLElement) => overflows(cell) || Array.from(cell.querySelectorAll('*')).some(overflows);

/** The cell under an event, when its text is cut off; not a cell of the checkboxes, nor a target that acts itself. */
function cutCell(event: ReactMouseEvent): HTMLTableCellElement | null {
  const target = event.target as Element;
  if (target.closest('a, button, input, select, textarea, label, [role="button"], [role="checkbox"]')) return null;
  const cell = target.closest('td');
  if (!cell || cell.dataset.testid === 'data-table-check-cell') return null;
  return isCut(cell) ? cell : null;
}

/** The cell's text as shown, its lines joined by spaces (textContent where nothing is laid out). */
const cellText = (cell: HTMLElement) => (cell.innerText || cell.textContent || '').replace(/\s*\n\s*/g, ' ').trim();

export function useCellPeek(tapToPeek: boolean): {
  onMouseOver: (event: ReactMouseEvent) => void;
  onClick: (event: ReactMouseEvent) => void;
  bubble: ReactNode;
} {
  const [peek, setPeek] = useState<Peek | null>(null);
  const close = useCallback(() => setPeek(null), []);

  // The title is set afresh each time the pointer comes (a row's values change with every refresh); a title the cell
  // has of its own (plain text content) is left to it.
  const onMouseOver = useCallback((event: ReactMouseEvent) => {
    const cell = (event.target as Element).closest('td');
    if (!cell || (cell.hasAttribute('title') && !cell.dataset.peekTitle)) return;
    if (isCut(cell)) {
      cell.title = cellText(cell);
      cell.dataset.peekTitle = '1';
    } else if (cell.dataset.peekTitle) {
      cell.removeAttribute('title');
      delete cell.dataset.peekTitle;
    }
  }, []);

  const onClick = useCallback(
    (event: ReactMouseEvent) => {
      if (!tapToPeek) return;
      const cell = cutCell(event);
      const text = cell ? cellText(cell) : '';
      if (!cell || !text) return;
      const r = cell.getBoundingClientRect();
      setPeek({ text, rect: { top: r.top, bottom: r.bottom, left: r.left } });
    },
    [tapToPeek],
  );

  useEffect(() => {
    if (!peek) return;
    // A tap anywhere but the bubble closes it (the tap that opens the next one lands after this).
    const onPointerDown = (event: PointerEvent) => {
      if (!(event.target as Element).closest?.('[data-testid="data-table-cell-peek"]')) setPeek(null);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setPeek(null);
    };
    document.addEventListener('pointerdown', onPointerDown, true);
    document.addEventListener('keydown', onKey);
    window.addEventListener('resize', close);
    window.addEventListener('scroll', close, true);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown, true);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('resize', close);
      window.removeEventListener('scroll', close, true);
    };
  }, [peek, close]);

  let bubble: ReactNode = null;
  if (peek) {
    const width = Math.min(MAX_WIDTH, window.innerWidth - 2 * EDGE);
    const left = Math.max(EDGE, Math.min(peek.rect.left, window.innerWidth - width - EDGE));
    const below = peek.rect.bottom + ROOM_BELOW <= window.innerHeight;
    const place = below ? { top: peek.rect.bottom + 4 } : { bottom: window.innerHeight - peek.rect.top + 4 };
    bubble = (
      <Portal>
        <div className={classes.cellPeek} role="status" data-testid="data-table-cell-peek" style={{ left, maxWidth: width, ...place }}>
          {peek.text}
        </div>
      </Portal>
    );
  }
  return { onMouseOver, onClick, bubble };
}
