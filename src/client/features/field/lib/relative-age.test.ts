import { describe, expect, it } from 'vitest';
import { relativeAge } from './relative-age';

describe('relativeAge', () => {
  const now = Date.UTC(2026, 10, 22, 5, 0, 0);
  it('says "now" for under 45 s and minutes, hours, days after that', () => {
    expect(relativeAge(now - 10_000, 'en-US', now)).toBe('now');
    expect(relativeAge(now - 2 * 60_000, 'en-US', now)).toBe('2 min. ago');
    expect(relativeAge(now - 3 * 3_600_000, 'en-US', now)).toBe('3 hr. ago');
    expect(relativeAge(now - 2 * 86_400_000, 'en-US', now)).toBe('2 days ago');
  });
  it('speaks the interface language', () => {
    expect(relativeAge(now - 5 * 60_000, 'ru', now)).toBe('5 мин. назад');
    expect(relativeAge(now - 5 * 60_000, 'zh-CN', now)).toBe('5分钟前');
  });
});
