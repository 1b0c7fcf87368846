import { describe, expect, it } from 'vitest';
import { SN_LENGTH, checkSn, isValidSn, normaliseSn } from './sn';

describe('SN rule', () => {
  it('is the spec length of 17', () => {
    expect(SN_LENGTH).toBe(17);
  });

  it('accepts exactly 17 characters, normalised to upper case without white space', () => {
    expect(checkSn('SMTTB000000000042')).toEqual({ ok: true, sn: 'SMTTB000000000042' });
    expect(checkSn('  smttb000000000042\r\n')).toEqual({ ok: true, sn: 'SMTTB000000000042' });
    expect(normaliseSn('\u0002abc\u0003 ')).toBe('ABC');
  });

  it('rejects 16 and 18 characters with the length reason', () => {
    expect(checkSn('SMTTB00000000004')).toEqual({ ok: false, reason: 'length', length: 16 });
    expect(checkSn('SMTTB0000000000421')).toEqual({ ok: false, reason: 'length', length: 18 });
    expect(isValidSn('JYZZ0000000009')).toBe(false);
  });

  it('reports empty input separately', () => {
    expect(checkSn('   ')).toEqual({ ok: false, reason: 'empty', length: 0 });
  });
});
