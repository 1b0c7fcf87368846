import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { minersI18n, withProviders } from '../lib/test-setup';
import { FaultBadges, StatusBadges } from './status-badges';

let i18n: I18n;

beforeAll(async () => {
  i18n = await minersI18n();
});

afterEach(cleanup);

describe('status and fault badges', () => {
  // Side by side in a fixed-width table cell, three states were each cut to a few letters ("НУЛЕ… НЕ З… АНОМАЛЬ…").
  it('shows the first state and "+N" for the others in a table cell', () => {
    const { container } = render(withProviders(i18n, <StatusBadges statuses={['zeroHashrate', 'cannotStart', 'abnormalIdeal']} compact />));
    expect([...container.querySelectorAll('[data-status]')].map((b) => b.getAttribute('data-status'))).toEqual(['zeroHashrate']);
    expect(screen.getByTestId('badges-more').textContent).toContain('+2');
  });

  it('shows a single fault as it is, and every one where there is room', () => {
    const one = render(withProviders(i18n, <FaultBadges labels={['high-temperature']} compact />));
    expect(one.container.querySelectorAll('[data-fault]')).toHaveLength(1);
    expect(screen.queryByTestId('badges-more')).toBeNull();
    cleanup();
    const all = render(withProviders(i18n, <FaultBadges labels={['high-temperature', 'missing-chip', 'empty-sn']} />));
    expect(all.container.querySelectorAll('[data-fault]')).toHaveLength(3);
    expect(screen.queryByTestId('badges-more')).toBeNull();
  });
});
