import { act, createElement, type ReactNode } from 'react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  getPreferenceOwner,
  preferenceKey,
  readPreference,
  removePreference,
  setPreferenceOwner,
  usePreference,
  writePreference,
} from './preferences';

beforeEach(() => {
  window.localStorage.clear();
  setPreferenceOwner(null);
});

afterEach(() => {
  cleanup(); // unmount first: the owner change below would update a mounted component outside act()
  setPreferenceOwner(null);
});

describe('preference keys', () => {
  it('uses anon without an owner and id:user with one', () => {
    expect(preferenceKey('theme')).toBe('hf:pref:anon:theme');
    setPreferenceOwner({ id: 42, user: 'alice' });
    expect(getPreferenceOwner()).toEqual({ id: 42, user: 'alice' });
    expect(preferenceKey('table:/setting/user:list')).toBe('hf:pref:42:alice:table:/setting/user:list');
  });
});

describe('readPreference / writePreference', () => {
  it('round-trips JSON under the owner key', () => {
    setPreferenceOwner({ id: '7', user: 'bob' });
    writePreference('sizes', { a: 1, b: [2, 3] });
    expect(window.localStorage.getItem('hf:pref:7:bob:sizes')).toBe('{"a":1,"b":[2,3]}');
    expect(readPreference('sizes', null)).toEqual({ a: 1, b: [2, 3] });
  });

  it('keeps users apart', () => {
    setPreferenceOwner({ id: 1, user: 'a' });
    writePreference('lang', 'ru');
    setPreferenceOwner({ id: 2, user: 'b' });
    expect(readPreference('lang', 'zh-CN')).toBe('zh-CN');
    setPreferenceOwner(null);
    expect(readPreference('lang', 'en-US')).toBe('en-US');
  });

  it('returns the fallback for missing or corrupt values', () => {
    expect(readPreference('missing', 5)).toBe(5);
    window.localStorage.setItem('hf:pref:anon:broken', '{not json');
    expect(readPreference('broken', 'fallback')).toBe('fallback');
  });

  it('removes values and treats writing undefined as removal', () => {
    writePreference('x', 1);
    removePreference('x');
    expect(window.localStorage.getItem('hf:pref:anon:x')).toBeNull();
    writePreference('y', 2);
    writePreference('y', undefined);
    expect(readPreference('y', 0)).toBe(0);
  });

  it('returns the same object until the stored JSON changes', () => {
    writePreference('obj', { a: 1 });
    const first = readPreference('obj', {});
    expect(readPreference('obj', {})).toBe(first);
    writePreference('obj', { a: 2 });
    expect(readPreference('obj', {})).not.toBe(first);
  });

  it('keeps working in memory when localStorage refuses writes', () => {
    const original = Storage.prototype.setItem;
    Storage.prototype.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    try {
      writePreference('quota', 'kept');
      expect(readPreference('quota', 'lost')).toBe('kept');
    } finally {
      Storage.prototype.setItem = original;
    }
  });
});

function Show({ name }: { name: string }): ReactNode {
  const [value] = usePreference(name, 'none');
  return createElement('span', { 'data-testid': `show-${name}` }, value);
}

function Edit({ name }: { name: string }): ReactNode {
  const [value, set] = usePreference(name, 'none');
  return createElement(
    'div',
    null,
    createElement('span', { 'data-testid': 'edit' }, value),
    createElement('button', { type: 'button', onClick: () => set('shelf') }, 'set'),
    createElement('button', { type: 'button', onClick: () => set((previous) => `${previous}!`) }, 'append'),
  );
}

describe('usePreference', () => {
  it('updates every component using the same name', () => {
    render(createElement('div', null, createElement(Show, { name: 'mode' }), createElement(Edit, { name: 'mode' })));
    expect(screen.getByTestId('show-mode').textContent).toBe('none');
    fireEvent.click(screen.getByRole('button', { name: 'set' }));
    expect(screen.getByTestId('show-mode').textContent).toBe('shelf');
    expect(screen.getByTestId('edit').textContent).toBe('shelf');
    fireEvent.click(screen.getByRole('button', { name: 'append' }));
    expect(screen.getByTestId('show-mode').textContent).toBe('shelf!');
    expect(readPreference('mode', '')).toBe('shelf!');
  });

  it('follows owner changes and storage events from other tabs', () => {
    setPreferenceOwner({ id: 1, user: 'a' });
    writePreference('mode', 'list');
    render(createElement(Show, { name: 'mode' }));
    expect(screen.getByTestId('show-mode').textContent).toBe('list');
    act(() => setPreferenceOwner({ id: 2, user: 'b' }));
    expect(screen.getByTestId('show-mode').textContent).toBe('none');
    act(() => {
      window.localStorage.setItem('hf:pref:2:b:mode', '"shelf"');
      window.dispatchEvent(new StorageEvent('storage', { key: 'hf:pref:2:b:mode' }));
    });
    expect(screen.getByTestId('show-mode').textContent).toBe('shelf');
  });
});
