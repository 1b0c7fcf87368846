import { describe, expect, it } from 'vitest';
import { closeTruncated, parseCgminerText, parseTolerantJson } from './tolerant-json';
import { parseReply } from './cgminer-rpc';

const ok = (s: string) => {
  const r = parseTolerantJson(s);
  if (!r.ok) throw new Error(`not repaired: ${r.error} :: ${s}`);
  return r.value as Record<string, unknown>;
};

describe('tolerant JSON parser (miner-protocols.md §10.2)', () => {
  it('parses valid JSON untouched, without repairs', () => {
    const r = parseTolerantJson('{"a":"x\\"y","b":[1,2]}');
    expect(r.ok && r.repairs).toEqual([]);
  });
  it('strips a trailing NUL (all cgminer-family)', () => {
    expect(ok('{"STATUS":[{"STATUS":"S"}],"id":1}\u0000')).toEqual({ STATUS: [{ STATUS: 'S' }], id: 1 });
  });
  it('repairs ,} trailing comma (btminer) and the get_miner_info case', () => {
    expect(ok('{"Msg":{"ip":"10.0.0.1","ledstat":"auto",},"STATUS":"S"}')).toEqual({ Msg: { ip: '10.0.0.1', ledstat: 'auto' }, STATUS: 'S' });
    expect(ok('{"REBOOT":[{"Board":1,"IsShutdown": false,\n}]}')).toEqual({ REBOOT: [{ Board: 1, IsShutdown: false }] });
  });
  it('removes raw newlines inside values', () => {
    expect(ok('{"Msg":"Sum\nmary","Code":11}')).toEqual({ Msg: 'Summary', Code: 11 });
  });
  it('repairs }{ between objects (bmminer)', () => {
    expect(ok('{"STATS":[{"Type":"Antminer S19"}{"GHS 5s":1}],"id":1}')).toEqual({ STATS: [{ Type: 'Antminer S19' }, { 'GHS 5s': 1 }], id: 1 });
    // top-level sections glued together
    expect(ok('{"STATUS":[{"STATUS":"S"}]}{"SUMMARY":[{"Elapsed":5}],"id":1}')).toEqual({ STATUS: [{ STATUS: 'S' }], SUMMARY: [{ Elapsed: 5 }], id: 1 });
  });
  it('repairs [,{ (bmminer)', () => {
    expect(ok('{"POOLS":[,{"POOL":0}]}')).toEqual({ POOLS: [{ POOL: 0 }] });
  });
  it('repairs a missing comma before a key (""temp0, btminer 2023-01-06)', () => {
    expect(ok('{"Env Temp":"28.5""temp0":71,"x":1}')).toEqual({ 'Env Temp': '28.5', temp0: 71, x: 1 });
    expect(ok('{"When":1718003022"Code":11}')).toEqual({ When: 1718003022, Code: 11 });
  });
  it('maps inf / nan (quoted or bare) to 0 (Avalon)', () => {
    expect(ok('{"a":inf,"b":nan,"c":-inf,"d":1}')).toEqual({ a: 0, b: 0, c: 0, d: 1 });
  });
  it('replaces a leading comma with { (Avalon)', () => {
    expect(ok(',"STATUS":[{"STATUS":"S"}],"id":1}')).toEqual({ STATUS: [{ STATUS: 'S' }], id: 1 });
  });
  it('closes truncated output (huge btminer error lists)', () => {
    const v = ok('{"STATUS":"S","Msg":{"error_code":[{"110":"2024-06-15 09:15:00"},{"218":"2024-06-15 10:3');
    expect(v['STATUS']).toBe('S');
    expect((v['Msg'] as { error_code: unknown[] }).error_code).toEqual([{ '110': '2024-06-15 09:15:00' }]);
    expect(closeTruncated('{"a":[1,2,{"b":')).toBe('{"a":[1,2]}');
  });
  it('swaps [ ] for { } in the Whatsminer 2.0.4 error_code dict-list', () => {
    expect(ok('{"Msg":{"error_code":["110":"2024-06-15 09:15:00","218":"2024-06-15 10:30:00"]}}')).toEqual({
      Msg: { error_code: { '110': '2024-06-15 09:15:00', '218': '2024-06-15 10:30:00' } },
    });
  });
  it('never throws on garbage and reports failure', () => {
    for (const g of ['', '\u0000', '}}}}', '{"a":', 'hello', '[[[[', '{"a":"unterminated']) {
      expect(() => parseTolerantJson(g)).not.toThrow();
    }
    expect(parseTolerantJson('hello').ok).toBe(false);
  });
  it('parses the plain-text reply format with escapes', () => {
    const t = parseCgminerText('STATUS=S,When=1718000000,Code=11,Msg=Summary,Description=cgminer 1.0.0|SUMMARY,Elapsed=50474,GHS 5s=104566.89,Note=a\\,b\\|c|\u0000');
    expect(t?.['STATUS']?.[0]).toMatchObject({ STATUS: 'S', Code: 11, Description: 'cgminer 1.0.0' });
    expect(t?.['SUMMARY']?.[0]).toEqual({ Elapsed: 50474, 'GHS 5s': 104566.89, Note: 'a,b|c' });
  });
  it('parseReply handles RESTART, proxy errors and text replies', () => {
    expect(parseReply('{"STATUS":"RESTART","id":1}\u0000')).toEqual({ STATUS: 'RESTART', id: 1 });
    expect(parseReply('RESTART')).toEqual({ STATUS: 'RESTART' });
    expect(() => parseReply('Socket connect failed: Connection refused\n')).toThrow(/Socket connect failed/);
  });
});
