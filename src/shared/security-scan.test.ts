import { describe, expect, it } from 'vitest';
import { type SecurityScanReport, securityFindings, securityScanRefusal, securityScanSupported } from './security-scan';

describe('security scan rules', () => {
  it('covers Antminers of the S19 model and above only', () => {
    for (const model of ['S19', 'S19j Pro', 'S19 XP', 'S19 XP Hyd.', 'Antminer S21', 'T21', 'S21 Hydro', 'S23']) expect(securityScanSupported('Bitmain', model), model).toBe(true);
    for (const model of ['S17 Pro', 'T17', 'S9', 'L7', '']) expect(securityScanSupported('Bitmain', model), model).toBe(false);
    expect(securityScanSupported('MicroBT', 'M60S VK40')).toBe(false);
    expect(securityScanSupported('MicroBT', 'S21')).toBe(false);
    expect(securityScanSupported(null, 'S19j Pro')).toBe(true);
  });

  it('covers the hardware as the agent stores it, on stock firmware or VNish', () => {
    // the agent stores a VNish unit as make Antminer, model "S21 Pro" (agent/families/vnish.ts); the raw Type passes too
    expect(securityScanSupported('Antminer', 'S21 Pro')).toBe(true);
    expect(securityScanSupported('Antminer', 'Antminer S21 Pro (Vnish 1.2.7)')).toBe(true);
    expect(securityScanSupported('Antminer', 'Antminer S19j Pro (Vnish 1.2.6) AML')).toBe(true);
    expect(securityScanSupported('Antminer', 'Bitmain Antminer S19j Pro')).toBe(true);
    expect(securityScanSupported('Antminer', 'Antminer S17 Pro (Vnish 1.2.6)')).toBe(false);
    expect(securityScanSupported('Antminer', 'T17')).toBe(false);
  });

  it('leaves out firmware whose log cannot be read (Braiins OS, LuxOS): the model, then the firmware, is the reason', () => {
    expect(securityScanRefusal('Antminer', 'S19j Pro', 'antminer-stock')).toBeNull();
    expect(securityScanRefusal('Antminer', 'S21 Pro', 'vnish')).toBeNull();
    expect(securityScanRefusal('Antminer', 'S19j Pro', 'braiins')).toBe('firmware-not-supported');
    expect(securityScanRefusal('Antminer', 'S21', 'luxos')).toBe('firmware-not-supported');
    expect(securityScanRefusal('Antminer', 'S17 Pro', 'braiins')).toBe('model-not-supported');
    expect(securityScanSupported('Antminer', 'S19j Pro', 'braiins')).toBe(false);
    expect(securityScanSupported('Antminer', 'S19j Pro', null)).toBe(true);
  });

  it('derives the findings, most serious first', () => {
    const base: SecurityScanReport = { sshOpen: false, logRead: true, events: [] };
    expect(securityFindings(base)).toEqual([]);
    expect(securityFindings({ ...base, sshOpen: true })).toEqual(['ssh-open']);
    // Braiins OS, VNish, LuxOS: SSH on by design is not a finding; a login still is
    expect(securityFindings({ ...base, sshOpen: true, sshExpected: true })).toEqual([]);
    expect(securityFindings({ ...base, sshOpen: true, sshExpected: true, events: [{ kind: 'login', source: '9.9.9.9', count: 1, lastLine: 'z' }] })).toEqual(['ssh-login']);
    const failed = (source: string, count: number) => ({ kind: 'failed' as const, source, count, lastLine: 'x' });
    // 4 failures from one source is not brute force; 3 + 2 from the same source (two user names) is
    expect(securityFindings({ ...base, events: [failed('1.2.3.4', 4)] })).toEqual([]);
    expect(securityFindings({ ...base, events: [failed('1.2.3.4', 3), { ...failed('1.2.3.4', 2), user: 'admin' }] })).toEqual(['ssh-brute-force']);
    expect(securityFindings({ sshOpen: true, logRead: true, events: [failed('5.6.7.8', 9), { kind: 'login', source: '5.6.7.8', count: 1, lastLine: 'y' }] })).toEqual([
      'ssh-login',
      'ssh-brute-force',
      'ssh-open',
    ]);
  });
});
