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

/** The text of one fact of the card of `m`. */
const cardText = (m: CachedMiner, testId: string) => {
  const { unmount } = render(
    <I18nextProvider i18n={i18n}>
      <MinerCard miner={m} />
    </I18nextProvider>,
  );
  const text = screen.getByTestId(testId).textContent;
  unmount();
  return text;
};
const accidentText = (m: CachedMiner) => cardText(m, 'field-card-accident');

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

describe('MinerCard zone', () => {
  it('shows the sub-area holding the miner, or that it is in none (also for a row cached before zones were sent)', () => {
    const zoneText = (m: CachedMiner) => cardText(m, 'field-card-zone');
    expect(zoneText(miner({ zone: 'Hall A / Row 3 / Rack 12' }))).toBe('Hall A / Row 3 / Rack 12');
    expect(zoneText(miner({ zone: null }))).toBe('No zone');
    const { zone: _dropped, ...older } = miner({});
    expect(zoneText(older as CachedMiner)).toBe('No zone');
  });
});

describe('MinerCard SN', () => {
  it('says a miner reported no SN instead of a dash', () => {
    expect(cardText(miner({ sn: 'HTM3CS40ZXQWMBNKD' }), 'field-card-sn')).toBe('HTM3CS40ZXQWMBNKD');
    expect(cardText(miner({ sn: '' }), 'field-card-sn')).toBe('No SN');
  });
});

describe('MinerCard error codes', () => {
  const render1 = (m: CachedMiner) =>
    render(
      <I18nextProvider i18n={i18n}>
        <MinerCard miner={m} />
      </I18nextProvider>,
    );

  it("says why an offline miner is offline (its agent's reason) and lists the firmware's codes", () => {
    const { unmount } = render1(
      miner({ online: false, statuses: ['offline'], errorCodes: [{ code: -110, message: 'no answer' }, { code: 0, message: 'chain 2 not found' }] }),
    );
    expect(screen.getByTestId('field-card-offline-reason').textContent).toBe('No answer (powered off, or a cable or switch is down)');
    expect(screen.getByTestId('field-card-error-codes').textContent).toBe('0 chain 2 not found');
    // No real-time hashrate for a miner that is not answering (its last reading's stays out, as in the console).
    expect(screen.getByTestId('field-card-hashrate').textContent).toBe('—');
    expect(screen.getByTestId('field-card-ideal').textContent).toBe('ideal 200.00 TH/s');
    unmount();
  });

  it('shows no reason for an online miner, names an agent code, and shows nothing for a row cached before codes were sent', () => {
    let view = render1(miner({ errorCodes: [{ code: -401, message: 'auth' }, { code: 2010, message: 'fan lost' }] }));
    expect(screen.queryByTestId('field-card-offline-reason')).toBeNull();
    expect(screen.getByTestId('field-card-error-codes').textContent).toBe(
      "-401 The miner refused the farm's logins: add its password under Farm settings → Miner logins2010 fan lost",
    );
    view.unmount();
    const { errorCodes: _dropped, ...older } = miner({ online: false });
    view = render1(older as CachedMiner);
    expect(screen.queryByTestId('field-card-offline-reason')).toBeNull();
    expect(screen.queryByTestId('field-card-error-codes')).toBeNull();
    view.unmount();
  });
});
