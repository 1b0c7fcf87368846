import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { MinerRow } from '@shared/schemas/miner';
import { exportFileName, exportTable, toCsv } from './export-miners';
import type { MinerColumn } from './miner-columns';

const columns = [
  { key: 'ip', title: 'IP', exportValue: (r: MinerRow) => r.ip },
  { key: 'sn', title: '序列号', exportValue: (r: MinerRow) => r.sn },
  { key: 'gHS5s', title: 'Real-time, "5 s"', exportValue: (r: MinerRow) => r.gHS5s },
  { key: 'temp', title: 'Temp', exportValue: () => null },
] as unknown as MinerColumn[];
const rows = [{ ip: '10.0.0.1', sn: 'A,1', gHS5s: 1.5 }, { ip: '10.0.0.2', sn: '', gHS5s: 0 }] as MinerRow[];

describe('miner export', () => {
  it('writes the given columns with their headers, quoting where CSV needs it', () => {
    const table = exportTable(columns, rows);
    expect(table.headers).toEqual(['IP', '序列号', 'Real-time, "5 s"', 'Temp']);
    const csv = toCsv(table);
    expect(csv.startsWith('\ufeff')).toBe(true);
    const parsed = Papa.parse<string[]>(csv.slice(1), { skipEmptyLines: true }).data;
    expect(parsed).toEqual([
      ['IP', '序列号', 'Real-time, "5 s"', 'Temp'],
      ['10.0.0.1', 'A,1', '1.5', ''],
      ['10.0.0.2', '', '0', ''],
    ]);
  });

  it('names the file after the farm and the time', () => {
    expect(exportFileName('north-1', 'xlsx', new Date(2026, 10, 22, 9, 5))).toBe('miners-north-1-20261122-0905.xlsx');
  });
});
