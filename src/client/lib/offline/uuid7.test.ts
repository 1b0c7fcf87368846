import { describe, expect, it } from 'vitest';
import { uuid7 } from './uuid7';

describe('uuid7', () => {
  it('has version 7, the RFC variant and the timestamp in front', () => {
    const id = uuid7(0x0123456789ab);
    expect(id).toMatch(/^01234567-89ab-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
  it('sorts by creation time and never repeats', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => uuid7(1_700_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });
});
