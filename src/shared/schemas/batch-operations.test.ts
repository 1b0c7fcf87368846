import { describe, expect, it } from 'vitest';
import { BATCH_BODIES, SENSITIVE_BATCH_OPS, isSensitiveBatchOp, isValidPoolUrl } from './batch-operations';

describe('batch operation bodies', () => {
  it('lists the sensitive ops', () => {
    expect([...SENSITIVE_BATCH_OPS].sort()).toEqual(['batchDelete', 'batchOfflineRecoverDHCP', 'batchReset', 'batchSetPool', 'batchUpgrade']);
    expect(isSensitiveBatchOp('batchReboot')).toBe(false);
  });

  it('checks pool URLs: well formed, no gov / dhs', () => {
    expect(isValidPoolUrl('stratum+tcp://btc.pool.example:3333')).toBe(true);
    expect(isValidPoolUrl('stratum+ssl://eu.pool.example:443/path')).toBe(true);
    expect(isValidPoolUrl('btc.pool.example:3333')).toBe(false);
    expect(isValidPoolUrl('stratum+tcp://pool.GOV.example:3333')).toBe(false);
    expect(isValidPoolUrl('stratum+tcp://dhs-pool.example:3333')).toBe(false);
  });

  it('takes exactly one target, form strings, and clamps the hashrate percent', () => {
    const ok = BATCH_BODIES.batchAdjustHashRate.parse({ agentKey: 'a', ips: '10.0.0.1, 10.0.0.2,10.0.0.1', percent: '40' });
    expect(ok.ips).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(ok.percent).toBe(65);
    expect(BATCH_BODIES.batchAdjustHashRate.parse({ agentKey: 'a', filter: '{"model":"S21"}', percent: 120 }).percent).toBe(100);
    expect(BATCH_BODIES.batchReboot.safeParse({ agentKey: 'a' }).success).toBe(false);
    expect(BATCH_BODIES.batchReboot.safeParse({ agentKey: 'a', ips: '10.0.0.1', filter: '{}' }).success).toBe(false);
    expect(BATCH_BODIES.batchReboot.safeParse({ agentKey: 'a', filter: 'nope' }).success).toBe(false);
    expect(BATCH_BODIES.batchSetFans.safeParse({ agentKey: 'a', ips: '10.0.0.1', mode: 'manual' }).success).toBe(false);
    expect(BATCH_BODIES.batchSetFans.parse({ agentKey: 'a', ips: '10.0.0.1', mode: 'auto' }).percent).toBeUndefined();
    expect(BATCH_BODIES.batchSetPool.safeParse({ agentKey: 'a', ips: '10.0.0.1', pool1Url: 'stratum+tcp://a.example:1', pool1User: 'u', pool2Url: 'stratum+tcp://b.example:1' }).success).toBe(false);
  });
});
