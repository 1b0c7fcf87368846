import { describe, expect, it } from 'vitest';
import { DROPDOWN_MIN_HEIGHT, boundedDropdownHeight, boundedDropdownMiddlewares, boundedDropdownStyle } from './bounded-dropdown';

describe('bounded dropdown', () => {
  it('is as tall as the room on its side, never below a floor', () => {
    // A 740 px phone, the menu button's bottom at 400 px: 340 px below less the 8 px edge (floating-ui gives 332).
    expect(boundedDropdownHeight(332)).toBe(332);
    expect(boundedDropdownHeight(331.6)).toBe(331);
    expect(boundedDropdownHeight(40)).toBe(DROPDOWN_MIN_HEIGHT);
    expect(boundedDropdownHeight(-120)).toBe(DROPDOWN_MIN_HEIGHT);
    expect(boundedDropdownHeight(Number.NaN)).toBe(DROPDOWN_MIN_HEIGHT);
  });

  it('writes the bound on the dropdown, which scrolls inside, and opens where there is more room', () => {
    const size = boundedDropdownMiddlewares.size;
    if (typeof size !== 'object' || !size.apply) throw new Error('size middleware with apply expected');
    const floating = document.createElement('div');
    size.apply({ availableHeight: 512, availableWidth: 360, elements: { floating, reference: document.body } } as never);
    expect(floating.style.maxHeight).toBe('512px');
    expect(boundedDropdownStyle.overflowY).toBe('auto');
    expect(boundedDropdownMiddlewares.flip).toMatchObject({ fallbackStrategy: 'bestFit' });
  });
});
