import { describe, expect, it } from 'vitest';
import writeXlsxFile from 'write-excel-file/node';
import { AppError } from '../../errors';
import { parseIpListFile, parseTextIpList } from './ip-lists';

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
});
