import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { MemoryRouter } from 'react-router-dom';
import { setAgentKey } from '@client/lib/agent-key';
import { formatDate } from '@shared/format/date';
import type { MinerDetail } from '@shared/schemas/miner';
import { MinerDetailPage } from './miner-detail-page';
import { minersI18n, resetPage, withProviders } from '../lib/test-setup';

let i18n: I18n;

beforeAll(async () => {
  i18n = await minersI18n();
});

afterEach(() => {
  resetPage();
  window.matchMedia = desktopMatchMedia;
});

const desktopMatchMedia = window.matchMedia;
/** A phone: every max-width query matches (Mantine's useMediaQuery reads it after mounting). */
function asPhone() {
  window.matchMedia = (query: string) => ({ ...desktopMatchMedia(query), matches: query.includes('max-width') });
}

const TAKEN_AT = '2026-11-24T02:54:47.000Z';

function miner(online: boolean, marks: Partial<MinerDetail> = {}): MinerDetail {
  return {
    customer: null,
    accident: null,
    accidentNote: null,
    zone: null,
    zoneId: null,
    offShelf: null,
    ...marks,
    ip: '10.0.0.9',
    sn: 'HTM3CS40ZXQWMBNKD',
    mac: '',
    make: 'Antminer',
    model: 'S19',
    family: 'antminer-stock',
    firmwareVersion: '',
    compileTime: null,
    online,
    network: 'dhcp',
    statuses: [online ? 'online' : 'offline'],
    faultLabels: [],
    errorCodes: [],
    workMode: 'normal',
    elapsed: 3600,
    powerW: null,
    firstSeenAt: TAKEN_AT,
    takenAt: TAKEN_AT,
    gHS5s: 237_920,
    gHS30m: 236_100,
    gHSav: 235_000,
    rateIdeal: 234_000,
    hashRatePercent: 101.7,
    rate24Hour: null,
    tempChipMax: 80,
    snapshot: {
      sn: 'HTM3CS40ZXQWMBNKD',
      boards: [{ index: 0, sn: null, chips: 76, expectedChips: 76, tempChip: [70], tempPcb: [60], tempPic: [50], rateGhs: 79_300, hwErrors: 1, freqMhz: 650, failed: false }],
      fans: [6000],
      pools: [{ url: 'stratum+tcp://btc.example.com:3333', user: 'w1', status: 'alive', accepted: 10, rejected: 0, active: true }],
    },
  } as unknown as MinerDetail;
}

function mount(m: MinerDetail) {
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.startsWith('/api/miner/detail')) return new Response(JSON.stringify({ code: 0, msg: 'success', data: m }));
    if (url.startsWith('/api/miner/history')) return new Response(JSON.stringify({ code: 0, msg: 'success', data: [] }));
    return new Promise(() => undefined);
  });
  setAgentKey('north-hall');
  render(
    withProviders(
      i18n,
      <MemoryRouter initialEntries={['/device/miner/detail?ip=10.0.0.9']}>
        <MinerDetailPage />
      </MemoryRouter>,
    ),
  );
}

const live = () => ['gHS5s', 'gHS30m', 'hashRatePercent'].map((k) => screen.getByTestId(`miner-detail-${k}`).textContent);

describe('miner detail', () => {
  it('says an offline miner is offline since its last reading and shows no live hashrate', async () => {
    mount(miner(false));
    const notice = await screen.findByTestId('miner-detail-offline');
    expect(notice.textContent).toContain(`Offline — last reading at ${formatDate(TAKEN_AT)}`);
    expect(live()).toEqual(['—', '—', '—']);
    const board = screen.getByTestId('miner-board-row');
    expect(board.textContent).not.toContain('79.30 TH/s');
    // The figures that are not live stay.
    expect(screen.getByTestId('miner-detail-state').textContent).toContain('235.00 TH/s');
  });

  it('says why an offline miner is offline when its agent gave a reason', async () => {
    mount({ ...miner(false), errorCodes: [{ code: -111, message: 'refused' }] } as MinerDetail);
    const reason = await screen.findByTestId('miner-detail-offline-reason');
    expect(reason.textContent).toBe('Connection refused (rebooting, API turned off, or another device at this address)');
    expect(screen.getByTestId('miner-detail-offline').textContent).toContain('The figures below are from that reading');
  });

  it('shows an online miner’s live figures without a notice', async () => {
    mount(miner(true));
    await screen.findByTestId('miner-detail-state');
    expect(screen.queryByTestId('miner-detail-offline')).toBeNull();
    expect(live()).toEqual(['237.92 TH/s', '236.10 TH/s', '101.7%']);
    expect(screen.getByTestId('miner-board-row').textContent).toContain('79.30 TH/s');
    expect(screen.getByTestId('miner-pool-active').textContent).toBe('active');
  });

  it('gives the power under "Power (W)" without repeating the unit', async () => {
    mount({ ...miner(true), powerW: 3500 } as MinerDetail);
    const identity = await screen.findByTestId('miner-detail-identity');
    expect(identity.textContent).toContain('Power (W)3,500');
    expect(identity.textContent).not.toContain('3,500 W');
  });

  it('says a miner that missed its last polls is not answering, with the count and its last reading, and keeps its figures', async () => {
    mount(miner(true, { missedPolls: 2 }));
    const notice = await screen.findByTestId('miner-detail-not-answering');
    expect(notice.textContent).toContain(`Not answering — last reading at ${formatDate(TAKEN_AT)}`);
    expect(notice.textContent).toContain('(2 in a row)');
    expect(screen.queryByTestId('miner-detail-offline')).toBeNull();
    expect(live()).toEqual(['237.92 TH/s', '236.10 TH/s', '101.7%']);
  });

  it('says a miner is off shelf, since when and where its repair stands, with the way to the off-shelf records', async () => {
    mount(miner(false, { offShelf: { at: TAKEN_AT, repairStatus: 'onsite' } }));
    const notice = await screen.findByTestId('miner-detail-off-shelf');
    expect(notice.textContent).toContain(`Off shelf since ${formatDate(TAKEN_AT)}`);
    expect(notice.textContent).toContain('Repair: ');
    expect(screen.getByTestId('miner-detail-off-shelf-link').getAttribute('href')).toBe('/device/miners');
  });

  it('shows no off-shelf notice for a miner on shelf', async () => {
    mount(miner(true));
    await screen.findByTestId('miner-detail-state');
    expect(screen.queryByTestId('miner-detail-off-shelf')).toBeNull();
  });

  it('shows no notice for an offline miner’s missed polls other than the offline one', async () => {
    mount(miner(false, { missedPolls: 3 }));
    await screen.findByTestId('miner-detail-offline');
    expect(screen.queryByTestId('miner-detail-not-answering')).toBeNull();
  });

  it('shows the customer, the zone path and the localised accident mark with its note', async () => {
    mount(miner(true, { customer: 'Acme "North"', zone: 'Hall A / Row 1 / Rack 2', zoneId: '12', accident: 'power-failure', accidentNote: 'breaker 3' }));
    const identity = await screen.findByTestId('miner-detail-identity');
    expect(['customer', 'zone', 'accident'].map((k) => screen.getByTestId(`miner-detail-${k}`).textContent)).toEqual([
      'Acme "North"',
      'Hall A / Row 1 / Rack 2',
      'Power failure — breaker 3',
    ]);
    for (const title of ['Customer', 'Zone', 'Accident']) expect(identity.textContent).toContain(title);
  });

  it('shows a free-text accident mark as written, and "-" for what the miner lacks', async () => {
    mount(miner(true, { accident: 'flooded, "row 3"' }));
    await screen.findByTestId('miner-detail-identity');
    expect(['customer', 'zone', 'accident'].map((k) => screen.getByTestId(`miner-detail-${k}`).textContent)).toEqual(['-', '-', 'flooded, "row 3"']);
  });

  it('lays out each board and pool as a block of its own on a phone, the pool address whole', async () => {
    asPhone();
    mount(miner(true));
    const board = await screen.findByTestId('miner-board-row');
    expect(board.tagName).toBe('DIV');
    expect(screen.getByTestId('miner-detail-boards').querySelector('table')).toBeNull();
    for (const text of ['Board 1', 'OK', 'Chips / expected', '76 / 76', 'Chip °C', '70.0', 'Hashrate', '79.30 TH/s', 'Frequency', '650 MHz']) {
      expect(board.textContent).toContain(text);
    }
    expect(board.textContent).not.toContain('70.0 – 70.0'); // one sensor: one figure, not a range
    const pool = screen.getByTestId('miner-pool-row');
    expect(pool.tagName).toBe('DIV');
    expect(screen.getByTestId('miner-detail-pools').querySelector('table')).toBeNull();
    expect(pool.textContent).toContain('Pool 1');
    expect(screen.getByTestId('miner-pool-active').textContent).toBe('active');
    // The address is one element's whole text, not a table cell squeezed to a few letters.
    expect([...pool.querySelectorAll('div')].some((d) => d.textContent === 'stratum+tcp://btc.example.com:3333')).toBe(true);
    expect(pool.textContent).toContain('Worker');
  });
});
