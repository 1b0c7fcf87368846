import { describe, expect, it } from 'vitest';
import { minerLabel } from '@shared/miner-labels';
import type { MinerRow } from '@shared/schemas/miner';
import { exportTable } from './export-miners';
import { SN_COLUMN_WIDTH, minerColumns, titleWidth } from './miner-columns';

const t = ((key: string) => key) as never;
const columns = minerColumns(t, (_kind, value) => value);
const column = (key: string) => {
  const c = columns.find((x) => x.key === key);
  if (!c) throw new Error(key);
  return c;
};
const reading = { ip: '10.0.0.9', sn: 'HTM3CS40ZXQWMBNKD', gHS5s: 237_920, gHS30m: 236_100, gHSav: 235_000, rateIdeal: 234_000, hashRatePercent: 101.7 };
const online = { ...reading, online: true } as MinerRow;
const offline = { ...reading, online: false } as MinerRow;
const LIVE = ['gHS5s', 'gHS30m', 'hashRatePercent'];

describe('miner columns', () => {
  it('shows the live figures of an online miner', () => {
    expect(LIVE.map((k) => column(k).render?.(online, 0))).toEqual(['237.92 TH/s', '236.10 TH/s', '101.7%']);
  });

  it('does not show an offline miner’s last reading as live, on screen or in an export', () => {
    expect(LIVE.map((k) => column(k).render?.(offline, 0))).toEqual(['—', '—', '—']);
    const table = exportTable(LIVE.map(column), [online, offline]);
    expect(table.rows).toEqual([
      ['237.92 TH/s', '236.10 TH/s', 101.7],
      [null, null, null],
    ]);
    // Not live: the average since start and the ideal hashrate stay.
    expect(column('gHSav').render?.(offline, 0)).toBe('235.00 TH/s');
    expect(column('rateIdeal').exportValue(offline)).toBe('234.00 TH/s');
  });

  it('says a miner that missed its last polls, still counted online, is not answering — on screen and in an export', () => {
    const tr = ((key: string, o?: { count?: number }) => (o?.count === undefined ? key : `${key}:${o.count}`)) as never;
    const network = minerColumns(tr, (_kind, value) => `net.${value}`).find((c) => c.key === 'network')!;
    const lagging = { ...online, network: 'online', missedPolls: 2, takenAt: '2026-11-24T02:54:47.000Z' } as MinerRow;
    const answering = { ...lagging, missedPolls: 0 } as MinerRow;
    const gone = { ...lagging, online: false, network: 'offline', missedPolls: 3 } as MinerRow;
    expect([lagging, answering, gone].map((r) => network.exportValue(r))).toEqual(['list.notAnswering:2', 'net.online', 'net.offline']);
    const badge = network.render?.(lagging, 0) as { props: { missed: number; takenAt: string } };
    expect(badge.props).toEqual({ missed: 2, takenAt: '2026-11-24T02:54:47.000Z' });
    // its figures are those of its last reading, shown as they are (it is online)
    expect(LIVE.map((k) => column(k).render?.(lagging, 0))).toEqual(['237.92 TH/s', '236.10 TH/s', '101.7%']);
  });

  it('gives the SN column room for a 17-character serial number', () => {
    // Up to ~177 px of text at 14 px sans-serif (the widest of 816 serial numbers, measured in Chromium), plus 2 × 10 px padding.
    expect(column('sn').width).toBe(SN_COLUMN_WIDTH);
    expect(SN_COLUMN_WIDTH - 20).toBeGreaterThanOrEqual(178);
  });

  it('makes every column wide enough for its whole title in every language (headers were cut to "Теоретич…")', () => {
    const files = import.meta.glob<{ columns: Record<string, string> }>('/src/locales/*/miners.json', { eager: true, import: 'default' });
    for (const lng of ['zh-CN', 'en-US', 'ru']) {
      const titles = files[`/src/locales/${lng}/miners.json`]!.columns;
      const tr = ((key: string) => titles[key.replace('columns.', '')] ?? key) as never;
      for (const c of minerColumns(tr, (_kind, value) => value)) {
        expect(c.width! - (c.sortable ? 42 : 28), `${lng} ${c.key} "${c.title}"`).toBeGreaterThanOrEqual(titleWidth(c.title));
      }
    }
    // Measured in Chromium (bold 14 px DejaVu Sans): the estimate is not short of the real width.
    expect(titleWidth('Теоретический хешрейт')).toBeGreaterThanOrEqual(198);
    expect(titleWidth('芯片最高温度')).toBeGreaterThanOrEqual(84);
    expect(titleWidth('Вентиляторы (об/мин)')).toBeGreaterThanOrEqual(181);
  });

  it('gives four fans and a Russian uptime their room', () => {
    expect(column('fans').width).toBeGreaterThanOrEqual(230);
    expect(column('elapsed').width).toBeGreaterThanOrEqual(145);
  });
});

describe('customer, zone and accident columns', () => {
  const inLocale = (locale: 'zh-CN' | 'en-US' | 'ru') => minerColumns(t, (kind, value) => minerLabel(locale, kind, value));
  const col = (cols: ReturnType<typeof minerColumns>, key: string) => cols.find((c) => c.key === key)!;
  const KEYS = ['customer', 'zone', 'accident'];
  const marked = {
    ...online,
    customer: 'Acme "North", Hall [1]',
    accident: 'power-failure',
    accidentNote: 'breaker 3, row B',
    zone: 'Hall A / Row 1 / Rack 2',
    zoneId: '12',
  } as MinerRow;
  const bare = { ...online, customer: null, accident: null, accidentNote: null, zone: null, zoneId: null } as MinerRow;

  it('shows customer and zone by default, the accident in the column picker; none of them sortable', () => {
    const en = inLocale('en-US');
    expect(KEYS.map((k) => col(en, k).title)).toEqual(['columns.customer', 'columns.zone', 'columns.accident']);
    expect(KEYS.map((k) => col(en, k).defaultHidden ?? false)).toEqual([false, false, true]);
    expect(KEYS.map((k) => col(en, k).sortable ?? false)).toEqual([false, false, false]);
  });

  it('writes the customer, the zone path and the localised accident with its note, on screen and in an export', () => {
    const en = inLocale('en-US');
    const texts = ['Acme "North", Hall [1]', 'Hall A / Row 1 / Rack 2', 'Power failure — breaker 3, row B'];
    expect(KEYS.map((k) => col(en, k).render?.(marked, 0))).toEqual(texts);
    expect(exportTable(KEYS.map((k) => col(en, k)), [marked]).rows).toEqual([texts]);
    expect(col(inLocale('zh-CN'), 'accident').render?.(marked, 0)).toBe('断电 — breaker 3, row B');
    expect(col(inLocale('ru'), 'accident').render?.(marked, 0)).toBe('Отключение питания — breaker 3, row B');
    // The accident types that are fault labels are named as the fault labels are.
    expect(col(inLocale('en-US'), 'accident').render?.({ ...marked, accident: 'high-temperature', accidentNote: null }, 0)).toBe('High temperature');
  });

  it('shows a free-text accident mark as written, without a note when there is none', () => {
    const en = inLocale('en-US');
    const old = { ...bare, accident: 'flooded, "row 3"' } as MinerRow;
    expect(col(en, 'accident').render?.(old, 0)).toBe('flooded, "row 3"');
    expect(col(en, 'accident').exportValue(old)).toBe('flooded, "row 3"');
    expect(col(en, 'accident').render?.({ ...old, accidentNote: 'pump' }, 0)).toBe('flooded, "row 3" — pump');
  });

  it('shows "-" without them and exports empty cells', () => {
    const en = inLocale('en-US');
    expect(KEYS.map((k) => col(en, k).render?.(bare, 0))).toEqual(['-', '-', '-']);
    expect(exportTable(KEYS.map((k) => col(en, k)), [bare]).rows).toEqual([[null, null, null]]);
  });

  it("writes the agent's own errors with the label of the interface language, on screen and in an export", () => {
    const errorCode = minerColumns(t, (kind, value) => `${kind}:${value}`).find((c) => c.key === 'errorCode')!;
    const refused = { ...online, errorCode: '-401: auth-failed', errorCodes: [{ code: -401, message: 'auth-failed' }, { code: 531, message: 'Fan speed error' }] } as MinerRow;
    expect(errorCode.render?.(refused, 0)).toBe('-401: agentError:-401; 531: Fan speed error');
    expect(errorCode.exportValue(refused)).toBe('-401: agentError:-401; 531: Fan speed error');
    expect(errorCode.render?.({ ...online, errorCode: '', errorCodes: [] } as MinerRow, 0)).toBe('-');
  });
});
