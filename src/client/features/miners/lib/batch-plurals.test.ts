/** The batch answers' counts read right in every language: "1 miner queued", "1 строка …", "3 строки …", "5 строк …". */
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../../../locales/en-US/miners.json';
import ru from '../../../../locales/ru/miners.json';
import zh from '../../../../locales/zh-CN/miners.json';
import { minerCountText, uploadedListText } from './batch-plurals';

async function translator(lng: string) {
  const i = i18next.createInstance();
  await i.init({ lng, resources: { 'en-US': { miners: en }, ru: { miners: ru }, 'zh-CN': { miners: zh } }, defaultNS: 'miners', interpolation: { escapeValue: false } });
  return i.t.bind(i);
}

describe('batch counts in plural forms', () => {
  it('en-US: one and many', async () => {
    const t = await translator('en-US');
    expect(t('batch.progress.queued', { count: 1 })).toBe('1 miner queued');
    expect(t('batch.progress.queued', { count: 3 })).toBe('3 miners queued');
    expect(t('batch.progress.refused', { count: 0 })).toBe('0 miners refused');
    expect(t('batch.uploadInvalid', { count: 1 })).toBe('1 line is not an IP address and was skipped');
    expect(t('batch.uploadUnmatched', { count: 2 })).toBe('2 IPs are not miners of this farm');
  });

  it('ru: one, few and many', async () => {
    const t = await translator('ru');
    expect(t('batch.uploadInvalid', { count: 1 })).toMatch(/^1 строка /);
    expect(t('batch.uploadInvalid', { count: 3 })).toMatch(/^3 строки /);
    expect(t('batch.uploadInvalid', { count: 5 })).toMatch(/^5 строк /);
    expect(t('batch.uploadInvalid', { count: 21 })).toMatch(/^21 строка /);
  });

  it('zh-CN: one form', async () => {
    const t = await translator('zh-CN');
    expect(t('batch.progress.queued', { count: 1 })).toBe(t('batch.progress.queued', { count: 7 }).replace('7', '1'));
  });
});

describe('an uploaded list: its IPs and its miners each in their own plural form', () => {
  it('en-US: "1 IP, 1 miner", "3 IPs, 0 miners"', async () => {
    const t = await translator('en-US');
    expect(uploadedListText(t, { name: 'rack-7.txt', count: 1, matched: 1 })).toBe('IP list rack-7.txt: 1 IP, 1 miner');
    expect(uploadedListText(t, { name: 'old-rack.xls', count: 3, matched: 0 })).toBe('IP list old-rack.xls: 3 IPs, 0 miners');
  });

  it('ru: майнер / майнера / майнеров', async () => {
    const t = await translator('ru');
    expect(uploadedListText(t, { name: 'a.txt', count: 4, matched: 3 })).toBe('Список IP a.txt: 4 IP, 3 майнера');
    expect(minerCountText(t, 1)).toBe('1 майнер');
    expect(minerCountText(t, 21)).toBe('21 майнер');
    expect(minerCountText(t, 2)).toBe('2 майнера');
    expect(minerCountText(t, 5)).toBe('5 майнеров');
    expect(minerCountText(t, 11)).toBe('11 майнеров');
  });

  it('zh-CN', async () => {
    const t = await translator('zh-CN');
    expect(uploadedListText(t, { name: 'a.xlsx', count: 2, matched: 2 })).toBe('IP列表 a.xlsx：2 个IP，2 台矿机');
  });
});
