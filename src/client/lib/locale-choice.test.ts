import { describe, expect, it } from 'vitest';
import { chooseLocale } from './locale-choice';

describe('chooseLocale (spec 1 §1: query, then stored, then browser)', () => {
  it('prefers ?i18n= over everything', () => {
    expect(chooseLocale({ search: '?i18n=ru', stored: 'en-US', browser: ['zh-CN'] })).toEqual({ locale: 'ru', source: 'query' });
    expect(chooseLocale({ search: 'x=1&i18n=en', stored: 'ru' })).toEqual({ locale: 'en-US', source: 'query' });
  });
  it('ignores an unknown query value and uses the stored choice', () => {
    expect(chooseLocale({ search: '?i18n=fr', stored: 'en-US', browser: ['ru'] })).toEqual({ locale: 'en-US', source: 'stored' });
  });
  it('falls back to the first supported browser language', () => {
    expect(chooseLocale({ search: '', stored: null, browser: ['de-DE', 'ru-RU', 'en-US'] })).toEqual({ locale: 'ru', source: 'browser' });
    expect(chooseLocale({ stored: 'xx', browser: ['zh-TW'] })).toEqual({ locale: 'zh-CN', source: 'browser' });
  });
  it('defaults to zh-CN', () => {
    expect(chooseLocale({ search: '?a=b', stored: null, browser: ['de'] })).toEqual({ locale: 'zh-CN', source: 'default' });
    expect(chooseLocale({})).toEqual({ locale: 'zh-CN', source: 'default' });
  });
});
