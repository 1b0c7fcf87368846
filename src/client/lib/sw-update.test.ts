import { describe, expect, it } from 'vitest';
import { mayReloadFor } from './sw-update';

describe('mayReloadFor (at most one reload per version)', () => {
  it('allows the first reload for a version and refuses a second', () => {
    expect(mayReloadFor('abc', null)).toBe(true);
    expect(mayReloadFor('abc', 'abc')).toBe(false);
    expect(mayReloadFor('def', 'abc')).toBe(true);
  });
});
