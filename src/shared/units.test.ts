import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  HASHRATE_FACTORS,
  HASHRATE_UNITS,
  autoHashrate,
  containsSensitivePoolWord,
  convertHashrate,
  extractHost,
  isGovernmentAddress,
  isHashrateUnit,
  normalizeHashrateUnit,
  toGhs,
} from './units';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('hashrate factors', () => {
  it('match spec 1 §9 exactly', () => {
    expect(HASHRATE_FACTORS).toEqual({
      'H/s': 1e-9,
      'KH/s': 1e-6,
      'MH/s': 0.001,
      'GH/s': 1,
      'TH/s': 1000,
      'PH/s': 1e6,
      'EH/s': 1e9,
    });
    expect(HASHRATE_UNITS).toEqual(['H/s', 'KH/s', 'MH/s', 'GH/s', 'TH/s', 'PH/s', 'EH/s']);
  });

  it('recognises canonical and loose spellings', () => {
    expect(isHashrateUnit('TH/s')).toBe(true);
    expect(isHashrateUnit('th/s')).toBe(false);
    expect(normalizeHashrateUnit(' th/s ')).toBe('TH/s');
    expect(normalizeHashrateUnit('PH')).toBe('PH/s');
    expect(normalizeHashrateUnit('MHps')).toBe('MH/s');
    expect(normalizeHashrateUnit('ZH/s')).toBeNull();
    expect(normalizeHashrateUnit(42)).toBeNull();
  });
});

describe('toGhs / convertHashrate', () => {
  it('converts to GH/s with every factor', () => {
    expect(toGhs(1, 'H/s')).toBe(1e-9);
    expect(toGhs(1, 'KH/s')).toBe(1e-6);
    expect(toGhs(1, 'MH/s')).toBe(0.001);
    expect(toGhs(5, 'GH/s')).toBe(5);
    expect(toGhs(110, 'TH/s')).toBe(110_000);
    expect(toGhs(2.5, 'PH/s')).toBe(2_500_000);
    expect(toGhs(1, 'EH/s')).toBe(1e9);
  });

  it('converts between arbitrary units without float drift', () => {
    expect(convertHashrate(1, 'H/s', 'KH/s')).toBe(0.001);
    expect(convertHashrate(1500, 'TH/s', 'PH/s')).toBe(1.5);
    expect(convertHashrate(0.3, 'PH/s', 'TH/s')).toBe(300);
    expect(convertHashrate(7, 'EH/s', 'H/s')).toBe(7e18);
    expect(convertHashrate(-2, 'TH/s', 'GH/s')).toBe(-2000);
    expect(convertHashrate(0, 'EH/s', 'H/s')).toBe(0);
  });

  it('logs an error and returns null for an unsupported unit', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(toGhs(1, 'ZH/s')).toBeNull();
    expect(convertHashrate(1, 'TH/s', 'bogus')).toBeNull();
    expect(convertHashrate(1, '', 'TH/s')).toBeNull();
    expect(spy).toHaveBeenCalledTimes(3);
    expect(String(spy.mock.calls[0]?.[0])).toContain('ZH/s');
  });

  it('returns null for non-finite values without logging', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(toGhs(Number.NaN, 'TH/s')).toBeNull();
    expect(convertHashrate(Number.POSITIVE_INFINITY, 'TH/s', 'GH/s')).toBeNull();
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('autoHashrate', () => {
  it('picks the largest unit with a magnitude of at least 1', () => {
    expect(autoHashrate(110_000)).toEqual({ value: 110, unit: 'TH/s' });
    expect(autoHashrate(1000)).toEqual({ value: 1, unit: 'TH/s' });
    expect(autoHashrate(999)).toEqual({ value: 999, unit: 'GH/s' });
    expect(autoHashrate(2.5e6)).toEqual({ value: 2.5, unit: 'PH/s' });
    expect(autoHashrate(3e12)).toEqual({ value: 3000, unit: 'EH/s' });
    expect(autoHashrate(0.5)).toEqual({ value: 500, unit: 'MH/s' });
    expect(autoHashrate(1e-12)).toEqual({ value: 0.001, unit: 'H/s' });
  });

  it('keeps the sign and handles zero / non-finite input', () => {
    expect(autoHashrate(-2000)).toEqual({ value: -2, unit: 'TH/s' });
    expect(autoHashrate(0)).toEqual({ value: 0, unit: 'TH/s' });
    expect(autoHashrate(Number.NaN)).toEqual({ value: 0, unit: 'TH/s' });
  });
});

describe('isGovernmentAddress', () => {
  it('flags government-style domains', () => {
    for (const host of [
      'whitehouse.gov',
      'army.mil',
      'www.beijing.gov.cn',
      'service.gov.uk',
      'sat.gob.mx',
      'impots.gouv.fr',
      'e-gov.go.jp',
      'ird.govt.nz',
      'canada.gc.ca',
      'bmf.gv.at',
      'bundesregierung.bund.de',
      'WWW.EXAMPLE.GOV.',
    ]) {
      expect(isGovernmentAddress(host), host).toBe(true);
    }
  });

  it('accepts URLs, ports and user info', () => {
    expect(isGovernmentAddress('stratum+tcp://worker@pool.dhs.gov:3333')).toBe(true);
    expect(isGovernmentAddress('https://data.gov.cn/path?x=1')).toBe(true);
    expect(isGovernmentAddress('stratum+tcp://btc.f2pool.com:3333')).toBe(false);
  });

  it('does not flag ordinary domains, IPs or look-alikes', () => {
    for (const host of ['google.com', 'govtech.com', 'gov.example.com', 'mygov.io', '10.0.0.1', '', 'localhost', '[::1]:80', 'go.dev']) {
      expect(isGovernmentAddress(host), host).toBe(false);
    }
  });

  it('extracts hosts', () => {
    expect(extractHost('stratum+tcp://u.w@Pool.Example.com:3333/x')).toBe('pool.example.com');
    expect(extractHost('example.com:80')).toBe('example.com');
    expect(extractHost('  ')).toBe('');
  });
});

describe('containsSensitivePoolWord', () => {
  it('finds gov or dhs in any case', () => {
    expect(containsSensitivePoolWord('stratum+tcp://pool.gov.cn:3333')).toBe(true);
    expect(containsSensitivePoolWord('stratum+tcp://DHS-pool.com:3333')).toBe(true);
    expect(containsSensitivePoolWord('https://observer.example.com/?key=GoV')).toBe(true);
  });

  it('passes ordinary pool URLs', () => {
    expect(containsSensitivePoolWord('stratum+tcp://btc.f2pool.com:3333')).toBe(false);
    expect(containsSensitivePoolWord('stratum+tcp://ss.antpool.com:3333')).toBe(false);
    expect(containsSensitivePoolWord('')).toBe(false);
  });
});
