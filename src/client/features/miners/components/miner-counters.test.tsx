import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MINER_FAULT_LABELS } from '@shared/miner-labels';
import type { MinerFilter, MinerStat } from '@shared/schemas/miner';
import type { MinerFilterUpdate } from '../lib/miner-filter';
import { minersI18n, withProviders } from '../lib/test-setup';
import { MinerCounters } from './miner-counters';

let i18n: I18n;

beforeAll(async () => {
  i18n = await minersI18n();
});

afterEach(cleanup);

const STAT: MinerStat = {
  total: 500,
  online: 498,
  offline: 2,
  qualified: 490,
  unqualified: 3,
  zeroHashrate: 3,
  cannotStart: 1,
  illegalPool: 0,
  abnormalIdeal: 1,
  sleeping: 0,
  lowPower: 4,
  faults: Object.fromEntries(MINER_FAULT_LABELS.map((f) => [f, f === 'high-temperature' ? 1 : 0])) as MinerStat['faults'],
  qualified8h: 490,
  offline24h: 0,
};

/** The filter after clicking `testId` with `filter` set. */
function click(filter: MinerFilter, testId: string): MinerFilter {
  let next = filter;
  const onFilter = (update: MinerFilterUpdate) => {
    next = update(filter);
  };
  render(withProviders(i18n, <MinerCounters stat={STAT} loading={false} error={false} filter={filter} onFilter={onFilter} />));
  fireEvent.click(screen.getByTestId(testId));
  return next;
}

describe('miner counters', () => {
  // The counts leave the state and fault filters out: combining a counter with the other kind listed other miners
  // than the count said ("High temperature 1" with "Low power" on listed none).
  it('lists the miners a fault counter counts, dropping a state picked before', () => {
    expect(click({ status: 'lowPower', model: 'S19' }, 'miner-counter-fault-high-temperature')).toEqual({ faultType: 'high-temperature', model: 'S19' });
  });

  it('lists the miners a state counter counts, dropping a fault picked before', () => {
    expect(click({ faultType: 'high-temperature' }, 'miner-counter-offline')).toEqual({ status: 'offline' });
  });

  it('lists the miners 8-hour qualified and offline over 24 hours count', () => {
    expect(click({ faultType: 'missing-chip', model: 'S19' }, 'miner-counter-qualified8h')).toEqual({ status: 'qualified8h', model: 'S19' });
    cleanup();
    expect(click({ status: 'online' }, 'miner-counter-offline24h')).toEqual({ status: 'offline24h' });
    cleanup();
    expect(click({ status: 'offline24h' }, 'miner-counter-offline24h')).toEqual({});
    cleanup();
    render(withProviders(i18n, <MinerCounters stat={STAT} loading={false} error={false} filter={{ status: 'offline24h' }} onFilter={() => undefined} />));
    expect(screen.getByTestId('miner-counter-offline24h').getAttribute('aria-pressed')).toBe('true');
  });

  it('turns a counter off with a second click', () => {
    expect(click({ status: 'offline', model: 'S19' }, 'miner-counter-offline')).toEqual({ model: 'S19' });
    cleanup();
    expect(click({ faultType: 'high-temperature' }, 'miner-counter-fault-high-temperature')).toEqual({});
  });

  it("colours a count: the colour's text shade in the dark scheme, its darkest in the light one (miner-counters.module.css)", () => {
    render(withProviders(i18n, <MinerCounters stat={STAT} loading={false} error={false} filter={{}} onFilter={() => undefined} />));
    const hot = screen.getByTestId('miner-counter-fault-high-temperature-value');
    expect(hot.style.getPropertyValue('--counter-text')).toBe('var(--mantine-color-red-text)');
    expect(hot.style.getPropertyValue('--counter-strong')).toBe('var(--mantine-color-red-9)');
    expect(screen.getByTestId('miner-counter-qualified8h-value').style.getPropertyValue('--counter-strong')).toBe('var(--mantine-color-teal-9)');
    // A zero, and the neutral total, keep the text colour.
    expect(screen.getByTestId('miner-counter-illegalPool-value').style.getPropertyValue('--counter-text')).toBe('');
    expect(screen.getByTestId('miner-counter-total-value').style.getPropertyValue('--counter-text')).toBe('');
  });
});
