import { describe, expect, it } from 'vitest';
import { arrayBounds, isoOfMsFast, listFiguresText, minerRowJson, toMinerRow } from './miner-sql';

/** A row tuple as the database writes it (json_build_array: ", " between elements). */
const pgArray = (values: unknown[]): string => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;

/** The marks and the zone as ROW_COLUMNS writes them: json_build_array text, or null when the miner has none. */
const pgMarks = (customer: string | null, accident: string | null, note: string | null) => pgArray([customer, accident, note]);
const pgZone = (id: string, path: string) => pgArray([id, path]);

function raw(over: { tuple?: Partial<Record<number, unknown>>; figures?: string | null; marks?: string | null; zone?: string | null } = {}) {
  const tuple: unknown[] = [
    '2f86ee2a-4827-479d-b433-aa4ece58a2b4', '10.0.12.45', 'SMTTB0000003044', '02:48:00:0b:e4:00', 'Bitmain', 'S21', 'antminer-stock',
    'Thu Jul 11 16:38:25 CST 2024', 1720687105000, true, 0, 190000, 188100.5, 189050, 200000, 'normal', 86444, ['missing-chip'],
    { online: true, qualified: true, unqualified: false, zeroHashrate: false, cannotStart: false, illegalPool: false, abnormalIdeal: false, sleeping: false, lowPower: true },
    1773129600000, 1795366296522.053, 95.123456, 190000.129, null,
  ];
  for (const [i, v] of Object.entries(over.tuple ?? {})) tuple[Number(i)] = v;
  const snapshot = {
    boards: [
      { index: 0, chips: 108, expectedChips: 108, tempPcb: [60, 75], tempChip: [65, 80], tempPic: [55], rateGhs: 63000, hwErrors: 2, freqMhz: 490 },
      { index: 1, chips: 54, expectedChips: 108, tempPcb: [61, 76], tempChip: [66, 81.25], tempPic: [56], rateGhs: 31000, hwErrors: 0, freqMhz: 485 },
    ],
    fans: [4320, 4380],
    pools: [
      { url: 'stratum+tcp://pool,"one"[x]{y}\\z:3333', user: 'farm.w1 "quoted", 矿工', status: 'alive' as const, active: true, accepted: 10, rejected: 1 },
      { url: 'stratum+tcp://b:443', user: 'w,2', status: 'dead' as const, active: false, accepted: 0, rejected: 0 },
    ],
    errorCodes: [{ code: 'E1', message: 'fan "lost", [board] {2}\n' }],
    powerW: 3500,
  };
  return {
    r: pgArray(tuple),
    list_figures: over.figures === undefined ? listFiguresText(snapshot as never) : over.figures,
    snapshot: snapshot as never,
    marks: over.marks ?? null,
    zone: over.zone ?? null,
  };
}

describe('minerRowJson', () => {
  it('writes the values of toMinerRow, keys in the same order, strings with quotes, commas and brackets intact', () => {
    const cases = [
      raw(),
      raw({ tuple: { 8: null, 9: false, 17: [], 18: null, 21: null, 22: null, 23: 12.3456 } }),
      raw({ tuple: { 2: 'SN "with", [brackets] {and} \\ backslash', 3: '', 7: '', 15: 'sleep', 16: 1e6 } }),
      raw({ tuple: { 2: 'ends in a backslash \\', 3: '\\"', 6: '\\\\"x\\' } }), // escaped backslashes before a string's quotes
      raw({ figures: null }), // no stored figures: computed from the reading
      raw({ figures: '{"tempChipMin":1}' }), // stored before as an object
      // marks and zone: present, partly null, strings with quotes, commas, brackets, backslashes and non-ASCII
      raw({ marks: pgMarks('ACME Hosting', 'power-failure', 'row 3, rack "B" [left] {x}'), zone: pgZone('12', 'Hall A / Row 1 / Rack 2') }),
      raw({ marks: pgMarks('客户 "甲", [1]', null, null), zone: null }),
      raw({ marks: pgMarks(null, 'flooded, "badly" \\ ]', 'ends in a backslash \\'), zone: pgZone('7', 'Top, "north" / [B] {2} \\') }),
      raw({ marks: pgMarks(null, null, null), zone: pgZone('3', '矿区 / 一排') }),
      raw({ marks: JSON.stringify(['compact', 'other', 'no spaces']), zone: JSON.stringify(['9', 'A / B']) }),
      raw({ figures: null, marks: pgMarks('ACME', 'other', 'n'), zone: pgZone('5', 'A') }), // the object path carries them too
    ];
    for (const c of cases) {
      const text = minerRowJson(c);
      const expected = toMinerRow(c);
      expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(expected)));
      expect(Object.keys(JSON.parse(text) as object)).toEqual(Object.keys(JSON.parse(JSON.stringify(expected)) as object));
    }
  });

  it('reads arrays as JSON.stringify writes them too (no spaces) and empty stored arrays', () => {
    const c = raw();
    const compact = { ...c, r: JSON.stringify(JSON.parse(c.r)) };
    expect(JSON.parse(minerRowJson(compact))).toEqual(JSON.parse(minerRowJson(c)));
    const empty = { ...c, list_figures: '[]' };
    expect(JSON.parse(minerRowJson(empty))).toEqual(JSON.parse(JSON.stringify(toMinerRow(empty))));
  });

  it('gives the marks and the zone their keys, null when the miner has none', () => {
    const marked = JSON.parse(minerRowJson(raw({ marks: pgMarks('ACME, "Ltd"', 'power-failure', '[row 3]'), zone: pgZone('12', 'Hall A / Row 1') }))) as Record<string, unknown>;
    expect(marked).toMatchObject({ customer: 'ACME, "Ltd"', accident: 'power-failure', accidentNote: '[row 3]', zone: 'Hall A / Row 1', zoneId: '12' });
    expect(Object.keys(marked).slice(-5)).toEqual(['customer', 'accident', 'accidentNote', 'zone', 'zoneId']);
    for (const row of [minerRowJson(raw()), JSON.stringify(toMinerRow(raw()))]) {
      expect(JSON.parse(row)).toMatchObject({ customer: null, accident: null, accidentNote: null, zone: null, zoneId: null });
    }
  });
});

describe('isoOfMsFast', () => {
  it('writes what Date.toISOString writes', () => {
    const samples = [0, -1, 1, 86_399_999, 86_400_000, -86_400_001, 1773129600000, 1795366296522.053, 1795366296522.5, 253402300799999, -62198755200000];
    for (let i = 0; i < 2000; i++) samples.push(Math.floor((i * 7919.123 + 1) * 1e9) % 4e12 - 1e12);
    for (const ms of samples) expect(isoOfMsFast(ms)).toBe(new Date(Math.round(ms)).toISOString());
    expect(isoOfMsFast(null)).toBeNull();
  });

  it('finds the elements of a JSON array text whatever its strings hold', () => {
    const values: unknown[] = [
      'plain', 'a "quoted" word', 'ends in a backslash \\', '\\"', '\\\\"x\\', '[{,}]', '', 12.5, null, true,
      ['in', 'a "list"', ['\\']], { k: 'v\\', 'q"': [1, 2] }, '矿工 "中文"',
    ];
    for (const text of [JSON.stringify(values), pgArray(values)]) {
      const ends: number[] = [];
      expect(arrayBounds(text, ends)).toBe(values.length);
      const elements = ends.map((end, i) => text.slice(i === 0 ? 1 : ends[i - 1]! + 1, end));
      expect(elements.map((e) => JSON.parse(e) as unknown)).toEqual(values);
    }
    expect(arrayBounds('[]', [])).toBe(0);
  });
});
