import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import dashboard from '@locales/en-US/dashboard.json';
import type { DashboardCounters } from '@shared/schemas/miner-records';
import { OfflineReasonsCard } from './offline-reasons-card';

let i18n: I18n;

beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { dashboard } }, ns: ['dashboard'], defaultNS: 'dashboard', interpolation: { escapeValue: false } });
});

function counters(offline: number, offlineReasons: DashboardCounters['offlineReasons'] | undefined, offlineZones: DashboardCounters['offlineZones'] = []): DashboardCounters {
  return { offline, offlineReasons, offlineZones } as DashboardCounters;
}

function renderCard(c: DashboardCounters) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <MemoryRouter>
          <OfflineReasonsCard counters={c} pending={false} error={false} onRetry={() => undefined} />
        </MemoryRouter>
      </MantineProvider>
    </I18nextProvider>,
  );
}

const rows = () => screen.queryAllByTestId('dashboard-offline-reason');

describe('OfflineReasonsCard', () => {
  it('lists each reason with its count, linked to those offline miners, then the rest', () => {
    renderCard(counters(12, [{ code: -110, count: 7 }, { code: -111, count: 3 }]));
    expect(rows().map((r) => r.getAttribute('data-key'))).toEqual(['-110', '-111', 'other']);
    const [noAnswer, refused, other] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(noAnswer).getByText('No answer (powered off, or a cable or switch is down)')).toBeTruthy();
    expect(within(noAnswer).getByText('7')).toBeTruthy();
    expect(noAnswer.getAttribute('href')).toBe('/device/miner?status=offline&errorCode=-110');
    expect(refused.getAttribute('href')).toBe('/device/miner?status=offline&errorCode=-111');
    expect(within(other).getByText('Other or no reason recorded')).toBeTruthy();
    expect(within(other).getByText('2')).toBeTruthy();
    expect(other.getAttribute('href')).toBe('/device/miner?status=offline');
  });

  it('names the zones holding most of them, each linked to its offline miners', () => {
    renderCard(counters(12, [{ code: -110, count: 12 }], [{ id: '7', path: 'Hall A / Row 3', count: 9 }, { id: '8', path: 'Hall B / Row 1', count: 2 }]));
    const zones = screen.getAllByTestId('dashboard-offline-zone');
    expect(zones.map((z) => [z.textContent, z.getAttribute('href')])).toEqual([
      ['Hall A / Row 39', '/device/miner?status=offline&subArea=7'],
      ['Hall B / Row 12', '/device/miner?status=offline&subArea=8'],
    ]);
    expect(screen.getByTestId('dashboard-offline-zones').textContent).toContain('Zones with the most offline miners');
  });

  it('has no "other" row when every offline miner has a reason', () => {
    renderCard(counters(4, [{ code: -104, count: 4 }]));
    expect(rows().map((r) => r.getAttribute('data-key'))).toEqual(['-104']);
  });

  it('says so when no miner is offline', () => {
    renderCard(counters(0, []));
    expect(rows()).toHaveLength(0);
    expect(screen.queryByTestId('dashboard-offline-zones')).toBeNull();
    expect(screen.getByText('No miner is offline right now.')).toBeTruthy();
  });

  it('counts every offline miner as "other" from a summary kept before reasons were counted', () => {
    renderCard({ offline: 5 } as DashboardCounters);
    expect(rows().map((r) => r.getAttribute('data-key'))).toEqual(['other']);
    expect(screen.queryByTestId('dashboard-offline-zones')).toBeNull();
    expect(within(rows()[0]!).getByText('5')).toBeTruthy();
  });
});
