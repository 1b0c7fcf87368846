import { afterAll, describe, expect, it } from 'vitest';
import { formatNumber } from '@shared/format/number';
import { changeLocale, initI18n } from './i18n';

describe('numbers follow the interface language', () => {
  afterAll(() => changeLocale('zh-CN'));

  it('groups thousands with a no-break space after switching to Russian, with commas again after switching back', async () => {
    await initI18n('en-US');
    expect(formatNumber(5928)).toBe('5,928');
    await changeLocale('ru');
    expect(formatNumber(5928)).toBe('5\u00a0928');
    await changeLocale('zh-CN');
    expect(formatNumber(5928)).toBe('5,928');
  });
});
