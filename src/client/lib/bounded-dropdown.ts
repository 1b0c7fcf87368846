/**
 * A long Mantine Menu / Popover dropdown kept inside the window: it opens on the side of its button with more room
 * and is never taller than that room (a floor keeps a few items visible), scrolling inside itself. Without this, a
 * menu taller than a phone's screen runs off the bottom and its last items cannot be reached.
 */
import type { CSSProperties } from 'react';
import type { MenuProps } from '@mantine/core';

/** Space kept between the dropdown and the window's edge, px. */
export const DROPDOWN_EDGE_PADDING = 8;
/** The dropdown is never made shorter than this (about four items), px. */
export const DROPDOWN_MIN_HEIGHT = 160;

/** The dropdown's maximum height for the room floating-ui measured on its side (which can be negative off screen). */
export function boundedDropdownHeight(availableHeight: number): number {
  if (!Number.isFinite(availableHeight)) return DROPDOWN_MIN_HEIGHT;
  return Math.max(DROPDOWN_MIN_HEIGHT, Math.floor(availableHeight));
}

/** `middlewares` of a Menu / Popover whose dropdown must stay within the window. */
export const boundedDropdownMiddlewares: NonNullable<MenuProps['middlewares']> = {
  // The side with more room when the dropdown fits on neither (the default keeps the first side).
  flip: { fallbackStrategy: 'bestFit', padding: DROPDOWN_EDGE_PADDING },
  shift: { padding: DROPDOWN_EDGE_PADDING },
  size: {
    padding: DROPDOWN_EDGE_PADDING,
    apply({ availableHeight, elements }) {
      elements.floating.style.maxHeight = `${boundedDropdownHeight(availableHeight)}px`;
    },
  },
};

/** Style of the dropdown itself: it scrolls inside, and a swipe at its end does not scroll the page behind. */
export const boundedDropdownStyle: CSSProperties = { overflowY: 'auto', overscrollBehavior: 'contain' };
