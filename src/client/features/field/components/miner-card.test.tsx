import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import field from '@locales/en-US/field.json';
import fieldRu from '@locales/ru/field.json';
import type { CachedMiner } from '../lib/field-cache';
import { testMinerRow } from '@client/lib/offline/test-miner-row';
import { MinerCard } from './miner-card';

let i18n: I18n;
beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { field }, ru: { field: fieldRu } },
    ns: ['field'],
    defaultNS: 'field',
    interpolation: { escapeValue: false },
  });
});

const miner = (over: Partial<CachedMiner>): CachedMiner => ({
  agentKey: 'farm-a',
  ...testMinerRow(),
  ...over,
});

const accidentText = (m: CachedMiner) => {
  const { unmount } = render(
    <I18nextProvider i18n={i18n}>
      <MinerCard miner={m} />
    </I18nextProvider>,
  );
  const text = screen.getByTestId('field-card-accident').textContent;
  unmount();
  return text;
};

describe('MinerCard accident mark', () => {
  it('names the accident type in the interface language, with its note; a free-text mark as written', async () => {
    expect(accidentText(miner({ accident: 'fan-speed-abnormal', accidentNote: 'fan 1 stopped' }))).toBe('Fan speed abnormal — fan 1 stopped');
    expect(accidentText(miner({ accident: 'power-failure' }))).toBe('Power failure');
    expect(accidentText(miner({ accident: 'flooded row 3' }))).toBe('flooded row 3');
    await i18n.changeLanguage('ru');
    try {
      expect(accidentText(miner({ accident: 'liquid-damage' }))).toBe('Повреждение жидкостью');
    } finally {
      await i18n.changeLanguage('en-US');
    }
  });
});
