/** The set-pool form filled from a pool group or a sub-account (lib/pool-fill.ts): slots, clearing, passwords, suffix, what changed. */
import { describe, expect, it } from 'vitest';
import { EMPTY_POOL_FORM, type PoolForm, poolBody, workerPreview } from './batch-target';
import { changedFields, fillFromGroup, matchesGroup, withSubAccount } from './pool-fill';

const typed: PoolForm = {
  pool1Url: 'stratum+tcp://old-1.example:3333',
  pool1User: 'old1',
  pool1Password: 'x',
  pool2Url: 'stratum+tcp://old-2.example:3333',
  pool2User: 'old2',
  pool2Password: 'p2',
  pool3Url: 'stratum+tcp://old-3.example:3333',
  pool3User: 'old3',
  pool3Password: 'p3',
  workerSuffix: 'ip',
};

const twoPools = {
  pools: [
    { url: 'stratum+tcp://btc.hashfield-pool.com:3333', user: 'hfarm01' },
    { url: 'stratum+ssl://backup.hashfield-pool.com:443', user: 'hfarm02' },
  ],
};

describe('fill from a pool group', () => {
  it("puts the group's pools in order into pool 1–3 and clears the slot it lacks, password included", () => {
    expect(fillFromGroup(typed, twoPools)).toEqual({
      pool1Url: 'stratum+tcp://btc.hashfield-pool.com:3333',
      pool1User: 'hfarm01',
      pool1Password: 'x',
      pool2Url: 'stratum+ssl://backup.hashfield-pool.com:443',
      pool2User: 'hfarm02',
      pool2Password: 'p2',
      pool3Url: '',
      pool3User: '',
      pool3Password: '',
      workerSuffix: 'ip',
    });
  });

  it('a one-pool group clears pools 2 and 3; a three-pool group fills all; the form given is not changed', () => {
    const before = { ...typed };
    const one = fillFromGroup(typed, { pools: [{ url: 'stratum+tcp://a.example:1', user: 'a' }] });
    expect([one.pool1Url, one.pool1User, one.pool2Url, one.pool2User, one.pool2Password, one.pool3Url, one.pool3User]).toEqual(['stratum+tcp://a.example:1', 'a', '', '', '', '', '']);
    const three = fillFromGroup(EMPTY_POOL_FORM, {
      pools: [
        { url: 'u1', user: 'w1' },
        { url: 'u2', user: 'w2' },
        { url: 'u3', user: 'w3' },
      ],
    });
    expect([three.pool1Url, three.pool2Url, three.pool3Url, three.pool1User, three.pool2User, three.pool3User]).toEqual(['u1', 'u2', 'u3', 'w1', 'w2', 'w3']);
    expect(typed).toEqual(before);
  });

  it('the worker preview and the body sent follow the filled pools', () => {
    const filled = fillFromGroup(typed, twoPools);
    expect(workerPreview(filled.pool1User, filled.workerSuffix, { ip: '10.0.1.7', sn: 'SN1' }, '<worker>')).toBe('hfarm01.10x0x1x7');
    expect(poolBody(filled)).toEqual({
      workerSuffix: 'ip',
      pool1Url: 'stratum+tcp://btc.hashfield-pool.com:3333',
      pool1User: 'hfarm01',
      pool1Password: 'x',
      pool2Url: 'stratum+ssl://backup.hashfield-pool.com:443',
      pool2User: 'hfarm02',
      pool2Password: 'p2',
    });
  });

  it('matches the group until a pool of it is changed', () => {
    const filled = fillFromGroup(typed, twoPools);
    expect(matchesGroup(filled, twoPools)).toBe(true);
    expect(matchesGroup({ ...filled, pool1Password: 'other' }, twoPools)).toBe(true);
    expect(matchesGroup({ ...filled, pool2User: 'someone' }, twoPools)).toBe(false);
    expect(matchesGroup({ ...filled, pool3Url: 'stratum+tcp://c.example:1' }, twoPools)).toBe(false);
    expect(matchesGroup(typed, twoPools)).toBe(false);
  });

  it('reports only the fields that changed', () => {
    const filled = fillFromGroup(typed, twoPools);
    expect(changedFields(typed, filled)).toEqual([
      ['pool1Url', 'stratum+tcp://btc.hashfield-pool.com:3333'],
      ['pool1User', 'hfarm01'],
      ['pool2Url', 'stratum+ssl://backup.hashfield-pool.com:443'],
      ['pool2User', 'hfarm02'],
      ['pool3Url', ''],
      ['pool3User', ''],
      ['pool3Password', ''],
    ]);
    expect(changedFields(filled, filled)).toEqual([]);
  });
});

describe('pick a sub-account', () => {
  it("sets only that pool's worker", () => {
    const next = withSubAccount(typed, 2, 'hfarm02');
    expect(next).toEqual({ ...typed, pool2User: 'hfarm02' });
    expect(changedFields(typed, next)).toEqual([['pool2User', 'hfarm02']]);
  });
});
