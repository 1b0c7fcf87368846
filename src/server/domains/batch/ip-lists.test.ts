import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { AppError } from '../../errors';
import { parseIpListFile, parseTextIpList } from './ip-lists';
import { XlsFormatError, readXlsRows } from './xls-reader';

/** Legacy Excel files written by python3-xlwt and by Gnumeric (tests/fixtures/ip-lists/make-xls.py). */
const xls = (name: string) => readFileSync(new URL(`../../../../tests/fixtures/ip-lists/${name}.xls`, import.meta.url));

const errorName = async (p: Promise<unknown>) => {
  try {
    await p;
    return null;
  } catch (e) {
    return e instanceof AppError ? e.errorName : String(e);
  }
};

describe('IP list files', () => {
  it('reads one IP per line, skipping blanks and duplicates, reporting bad lines', () => {
    expect(parseTextIpList('\uFEFF10.0.0.1\r\n\r\n10.0.0.2\nfoo\n10.0.0.1\n')).toEqual({
      entries: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }],
      invalid: [{ line: 4, value: 'foo' }],
    });
  });

  it('reads an xlsx with a header row (IP, SN, customer)', async () => {
    const buf = await writeXlsxFile([
      ['IP', 'SN', 'Customer'],
      ['10.0.0.5', 'SN5', 'ACME'],
      ['10.0.0.6', null, null],
    ]).toBuffer();
    const r = await parseIpListFile(buf, 'list.xlsx');
    expect(r.entries).toEqual([{ ip: '10.0.0.5', sn: 'SN5', customer: 'ACME' }, { ip: '10.0.0.6' }]);
    expect(r.invalid).toEqual([]);
  });

  it('refuses other formats and more than 10,000 rows', async () => {
    expect(await errorName(parseIpListFile(Buffer.from('10.0.0.1'), 'a.csv'))).toBe('unsupportedFileFormat');
    expect(await errorName(parseIpListFile(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), undefined))).toBe('unsupportedFileFormat');
    expect(await errorName(parseIpListFile(Buffer.from([0xff, 0xfe, 0x41]), undefined))).toBe('unsupportedFileFormat');
    const big = Array.from({ length: 10_001 }, (_, i) => `10.3.${Math.floor(i / 250)}.${(i % 250) + 1}`).join('\n');
    expect(await errorName(parseIpListFile(Buffer.from(big), 'big.txt'))).toBe('tooManyRows');
  });

  it('reads a legacy .xls (xlwt): header, numbers as text, Chinese text, blank rows, the first sheet only', async () => {
    const r = await parseIpListFile(xls('small'), 'list.xls');
    expect(r.entries).toEqual([
      { ip: '127.20.0.1', sn: 'HTM3CS40BJAB1234X', customer: 'Hosting A' },
      { ip: '127.20.0.2', sn: '1234567', customer: '客户甲' },
      { ip: '127.20.0.4' },
    ]);
    expect(r.invalid).toEqual([{ line: 6, value: 'not-an-ip' }]); // the spreadsheet's row number
    // xlwt stores no formula results; the same file saved by Gnumeric carries them (a FORMULA + STRING record).
    expect((await parseIpListFile(xls('recalculated'), undefined)).entries.map((e) => e.ip)).toEqual(['127.20.0.1', '127.20.0.2', '127.20.0.3', '127.20.0.4']);
  });

  it('reads an .xls whose workbook sits in the mini stream (Gnumeric), and Cyrillic text', async () => {
    const r = await parseIpListFile(xls('gnumeric'), 'list.xls');
    expect(r.entries).toEqual([
      { ip: '127.22.0.1', sn: 'SNA1', customer: 'Alpha' },
      { ip: '127.22.0.2', sn: 'SNA2', customer: 'Бета' },
      { ip: '127.22.0.3' },
    ]);
  });

  it('reads 1,500 rows whose shared strings run over CONTINUE records, every cell as written', async () => {
    const r = await parseIpListFile(xls('large'), 'list.xls');
    expect(r.entries).toHaveLength(1500);
    expect(r.invalid).toEqual([]);
    r.entries.forEach((e, i) => {
      expect(e).toEqual({
        ip: `127.21.${Math.floor(i / 250)}.${(i % 250) + 1}`,
        sn: `SN${String(i).padStart(15, '0')}`,
        customer: i % 3 === 0 ? `客户${i}号` : `Customer ${i}`,
      });
    });
  });

  it('refuses an .xls that is not one, another format under its name, and damaged files (never a crash or a hang)', async () => {
    expect(await errorName(parseIpListFile(Buffer.from('10.0.0.1\n'), 'ips.xls'))).toBe('unsupportedFileFormat');
    expect(await errorName(parseIpListFile(xls('small'), 'ips.txt'))).toBe('unsupportedFileFormat');
    expect(await errorName(parseIpListFile(xls('small'), 'ips.xlsx'))).toBe('unsupportedFileFormat');
    const large = xls('large');
    expect(await errorName(parseIpListFile(large.subarray(0, 60_000), 'cut.xls'))).toBe('unsupportedFileFormat');
    // Bytes changed at random: read as something, or refused as a format error; nothing else.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    for (let round = 0; round < 200; round++) {
      const bad = Buffer.from(round % 2 ? large : xls('gnumeric'));
      for (let k = 0; k < 1 + rand(8); k++) bad[rand(round % 4 === 0 ? 1024 : bad.length)] = rand(256);
      try {
        readXlsRows(bad);
      } catch (err) {
        expect(err).toBeInstanceOf(XlsFormatError);
      }
    }
  });
});
