import { describe, expect, it } from 'vitest';
import { AREA_CODES, isHostedObserverHost, isObserverTestExempt, observerUrlProblem, poolUrlProblem } from './pool-sites';

describe('pool and observer link rules', () => {
  it('pool addresses start with a stratum scheme and avoid gov / dhs', () => {
    expect(poolUrlProblem('stratum+tcp://btc.pool.example:3333')).toBeNull();
    expect(poolUrlProblem(' stratum+ssl://btc.pool.example:443 ')).toBeNull();
    expect(poolUrlProblem('stratum2+tcp://btc.pool.example:3336')).toBeNull();
    expect(poolUrlProblem('stratum+tcp://')).toBe('validation.poolUrlFormat');
    expect(poolUrlProblem('tcp://btc.pool.example:3333')).toBe('validation.poolUrlFormat');
    expect(poolUrlProblem('stratum+tcp://btc pool:1')).toBe('validation.poolUrlFormat');
    expect(poolUrlProblem('stratum+tcp://pool.GOV.example:1')).toBe('validation.poolUrlSensitive');
    expect(poolUrlProblem('stratum+tcp://dhs-pool.example:1')).toBe('validation.poolUrlSensitive');
  });
  it('observer links: required, http(s), no sensitive word, hosted sites need access_key and prefix', () => {
    expect(observerUrlProblem('')).toBe('validation.observerUrlRequired');
    expect(observerUrlProblem('javascript:alert(1)')).toBe('validation.invalidUrl');
    expect(observerUrlProblem('https://pool.example/o?gov=1')).toBe('validation.observerUrlSensitive');
    expect(observerUrlProblem('https://watch.minerhost.io/o?prefix=a')).toBe('validation.observerUrlHosted');
    expect(observerUrlProblem('https://watch.minerhost.io/o?prefix=a&access_key=k')).toBeNull();
    expect(isHostedObserverHost('customer.hostedpool.example')).toBe(true);
    expect(isHostedObserverHost('127.0.0.1')).toBe(false);
  });
  it('documents the exempt pools and lists area codes with 86 first', () => {
    expect(isObserverTestExempt(' Private pool ')).toBe(true);
    expect(isObserverTestExempt('AntPool')).toBe(false);
    expect(AREA_CODES[0]?.code).toBe('86');
    expect(new Set(AREA_CODES.map((a) => a.code)).size).toBe(AREA_CODES.length);
  });
});
