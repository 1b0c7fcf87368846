import { describe, expect, it } from 'vitest';
import { agentCommand } from './agent-command';
import { hostDetailHref, mbToGb, splitUptime } from './host-format';
import { hostShortfalls, sizingAdvice } from './host-sizing';

describe('sizingAdvice (spec 1 §9)', () => {
  it('recommends 4 cores / 16 GB / 100 GB / 20 Mbit per 10,000 miners', () => {
    expect(sizingAdvice(0)).toMatchObject({ cores: 4, memoryGb: 16, diskGb: 100, bandwidthMbit: 20, overLimit: false, nucsNeeded: 1 });
    expect(sizingAdvice(15_000)).toMatchObject({ cores: 8, memoryGb: 32, diskGb: 200, bandwidthMbit: 40, overLimit: false });
  });

  it('flags a NUC at or above 20,000 miners and counts the NUCs needed', () => {
    expect(sizingAdvice(19_999).overLimit).toBe(false);
    expect(sizingAdvice(20_000)).toMatchObject({ overLimit: true, nucsNeeded: 2 });
    expect(sizingAdvice(45_000).nucsNeeded).toBe(3);
  });
});

describe('hostShortfalls', () => {
  it('compares CPU and memory with the recommendation', () => {
    expect(hostShortfalls({ minerCount: 5_000, cpuCores: 4, memoryMb: 15_800 })).toEqual([]);
    expect(hostShortfalls({ minerCount: 15_000, cpuCores: 4, memoryMb: 16_000 })).toEqual(['cpu', 'memory']);
    expect(hostShortfalls({ minerCount: 100, cpuCores: null, memoryMb: null })).toEqual([]);
  });
});

describe('host display helpers', () => {
  it('splits uptime and converts MB', () => {
    expect(splitUptime(90_061)).toEqual({ days: 1, hours: 1, minutes: 1 });
    expect(mbToGb(16_384)).toBe('16.0');
    expect(mbToGb(null)).toBeNull();
    expect(hostDetailHref('a b')).toBe('/agents/hostInfo/detail?agentKey=a%20b');
  });

  it('builds the agent command', () => {
    expect(agentCommand('https://h.example', 'k1', 's3cret')).toBe('npm run agent -- --server https://h.example --key k1 --secret s3cret');
  });
});
