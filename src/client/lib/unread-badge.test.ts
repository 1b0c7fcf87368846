import { describe, expect, it } from 'vitest';
import { unreadBadge } from './unread-badge';

describe('unreadBadge (spec 1 §4)', () => {
  it('is hidden at zero and for missing or invalid counts', () => {
    for (const n of [0, null, undefined, Number.NaN, -3]) expect(unreadBadge(n).visible).toBe(false);
  });
  it('shows the count up to 99 and "99+" above', () => {
    expect(unreadBadge(1).text).toBe('1');
    expect(unreadBadge(99).text).toBe('99');
    expect(unreadBadge(100).text).toBe('99+');
    expect(unreadBadge(12345).text).toBe('99+');
  });
  it('uses the compact style below 10 only', () => {
    expect(unreadBadge(9).compact).toBe(true);
    expect(unreadBadge(10).compact).toBe(false);
    expect(unreadBadge(100).compact).toBe(false);
  });
});
