import { describe, expect, it, vi } from 'vitest';
import { setFormDirty } from './dirty-forms';
import { holdUpdateWhile, mayReloadFor, updateHeld, whenUpdateFree } from './sw-update';

describe('mayReloadFor (at most one reload per version)', () => {
  it('allows the first reload for a version and refuses a second', () => {
    expect(mayReloadFor('abc', null)).toBe(true);
    expect(mayReloadFor('abc', 'abc')).toBe(false);
    expect(mayReloadFor('def', 'abc')).toBe(true);
  });
});

describe('update hold (outbox not empty, dirty form)', () => {
  it('waits while a hold answers true and runs once it clears', async () => {
    vi.useFakeTimers();
    try {
      let busy = true;
      const release = holdUpdateWhile(() => busy);
      const run = vi.fn();
      const onHeld = vi.fn();
      whenUpdateFree(run, onHeld, 100);
      await vi.advanceTimersByTimeAsync(350);
      expect(run).not.toHaveBeenCalled();
      expect(onHeld).toHaveBeenCalledTimes(1);
      busy = false;
      await vi.advanceTimersByTimeAsync(150);
      expect(run).toHaveBeenCalledTimes(1);
      release();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a dirty form holds the update; an async or failing check holds it too; cancel stops waiting', async () => {
    expect(await updateHeld()).toBe(false);
    setFormDirty('note', true);
    expect(await updateHeld()).toBe(true);
    setFormDirty('note', false);
    const releaseAsync = holdUpdateWhile(async () => true);
    expect(await updateHeld()).toBe(true);
    releaseAsync();
    const releaseFailing = holdUpdateWhile(() => {
      throw new Error('db closed');
    });
    expect(await updateHeld()).toBe(true);
    releaseFailing();
    vi.useFakeTimers();
    try {
      const release = holdUpdateWhile(() => true);
      const run = vi.fn();
      const cancel = whenUpdateFree(run, undefined, 50);
      cancel();
      release();
      await vi.advanceTimersByTimeAsync(200);
      expect(run).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });
});
