import { describe, expect, it } from 'vitest';
import { BATCH_OPS } from '@shared/schemas/batch-operations';
import { POOL_CONFIG_IPS_IN_URL_MAX } from '@shared/schemas/pool-config-file';
import {
  BATCH_OP_GROUPS,
  EMPTY_POOL_FORM,
  clampHashratePercent,
  codeChannels,
  countdownLeft,
  defaultParams,
  missingNumbers,
  opAnswersLists,
  opNeedsCode,
  paramsBody,
  poolBody,
  poolConfigScopeOf,
  selectionTarget,
  workerPreview,
} from './batch-target';
import { splitReason } from '@client/lib/batch-reasons';
import { EMPTY_SELECTION, selectAllMatching } from './miner-selection';

const never = () => Promise.reject(new Error('not expected'));

describe('batch target', () => {
  it('sends explicit IPs comma-joined, an uploaded list by id, nothing for an empty selection', async () => {
    expect(await selectionTarget({ kind: 'ips', ips: ['10.0.0.1', '10.0.0.2'], rows: {} }, null, never)).toEqual({ ips: '10.0.0.1,10.0.0.2' });
    expect(await selectionTarget(EMPTY_SELECTION, null, never)).toBeNull();
    expect(await selectionTarget(EMPTY_SELECTION, { fileId: 'f1', count: 3, matched: 2, fileName: 'a.txt' }, never)).toEqual({ ipListFileId: 'f1' });
  });

  it('sends "all matching" as the filter, or the matching IPs minus the unticked ones', async () => {
    const all = selectAllMatching({ model: 'S21' }, 3);
    expect(await selectionTarget(all, null, never)).toEqual({ filter: '{"model":"S21"}' });
    const some = { ...all, excluded: ['10.0.0.2'] };
    expect(await selectionTarget(some, null, async () => ['10.0.0.1', '10.0.0.2', '10.0.0.3'])).toEqual({ ips: '10.0.0.1,10.0.0.3' });
  });

  it('groups every miner op once and knows the sensitive and list-answer ops', () => {
    const grouped = BATCH_OP_GROUPS.flatMap((g) => g.ops);
    expect(new Set(grouped).size).toBe(grouped.length);
    expect([...grouped].sort()).toEqual(BATCH_OPS.filter((o) => o !== 'setAgentPower').sort());
    expect(BATCH_OPS.filter(opNeedsCode).sort()).toEqual(['batchDelete', 'batchOfflineRecoverDHCP', 'batchReset', 'batchSetPool', 'batchUpgrade']);
    expect(BATCH_OPS.filter(opAnswersLists)).toEqual(['batchAdjustHashRate', 'batchSetFrequency', 'batchChangePowerPercent']);
  });

  it('clamps the hashrate percent to 65–100', () => {
    expect([10, 65, 80.4, 100, 130, Number.NaN].map(clampHashratePercent)).toEqual([65, 65, 80, 100, 100, 100]);
  });

  it('builds the pool body without empty fields and previews the worker name', () => {
    expect(poolBody({ ...EMPTY_POOL_FORM, pool1Url: ' stratum+tcp://a:1 ', pool1User: 'farm', workerSuffix: 'ip' })).toEqual({
      pool1Url: 'stratum+tcp://a:1',
      pool1User: 'farm',
      workerSuffix: 'ip',
    });
    expect(workerPreview('farm', 'ip', { ip: '10.0.0.7', sn: 'X1' }, '<worker>')).toBe('farm.10x0x0x7');
    expect(workerPreview('farm', 'sn', { ip: '10.0.0.7', sn: 'X1' }, '<worker>')).toBe('farm.X1');
    expect(workerPreview('farm', 'none', { ip: '10.0.0.7', sn: 'X1' }, '<worker>')).toBe('farm');
    expect(workerPreview(' ', 'ip', { ip: '10.0.0.7', sn: 'X1' }, '<воркер>')).toBe('<воркер>.10x0x0x7');
  });

  it('counts the resend pause down', () => {
    expect(countdownLeft(null, 5000, 60)).toBe(0);
    expect(countdownLeft(1000, 1000, 60)).toBe(60);
    expect(countdownLeft(1000, 31_500, 60)).toBe(30);
    expect(countdownLeft(1000, 70_000, 60)).toBe(0);
  });
});

describe('batch dialog values', () => {
  it('starts every op with values and builds the body', () => {
    expect(paramsBody('batchAdjustHashRate', { percent: 40 })).toEqual({ percent: 65 });
    expect(paramsBody('batchSetFans', defaultParams('batchSetFans'))).toEqual({ mode: 'auto' });
    expect(paramsBody('batchSetFans', { mode: 'manual', percent: 70 })).toEqual({ mode: 'manual', percent: 70 });
    expect(paramsBody('batchAccident', { accident: ' flood ', note: '' })).toEqual({ accident: 'flood' });
    expect(paramsBody('batchSetPool', { ...defaultParams('batchSetPool'), pool1Url: 'stratum+tcp://a:1', pool1User: 'u' })).toEqual({
      pool1Url: 'stratum+tcp://a:1',
      pool1User: 'u',
      workerSuffix: 'none',
    });
    expect(splitReason('unreachable:timeout')).toEqual({ code: 'unreachable', detail: 'timeout' });
    expect(splitReason('offline')).toEqual({ code: 'offline', detail: '' });
  });
});

describe('pool configuration file scope', () => {
  it('scopes the file to the selection: its addresses, or the filter less the unticked, else the whole farm', () => {
    expect(poolConfigScopeOf(EMPTY_SELECTION)).toBeNull();
    expect(poolConfigScopeOf({ kind: 'ips', ips: ['10.0.0.1', '10.0.0.2'], rows: {} })).toEqual({ ips: ['10.0.0.1', '10.0.0.2'] });
    const many = Array.from({ length: POOL_CONFIG_IPS_IN_URL_MAX + 1 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    expect(poolConfigScopeOf({ kind: 'ips', ips: many, rows: {} })).toBeNull();
    const matching = { kind: 'matching' as const, filter: { customer: 'Acme' }, total: 5000, excluded: ['10.0.0.9'] };
    expect(poolConfigScopeOf(matching)).toEqual({ filter: { customer: 'Acme' }, exclude: ['10.0.0.9'] });
    expect(poolConfigScopeOf({ ...matching, excluded: many })).toBeNull();
  });
});

describe('emptied number fields', () => {
  it('are required, never read as 0: fans at 0 % or a silent 65 % hashrate are not sent', () => {
    expect(missingNumbers('batchSetFans', { mode: 'manual', percent: '' })).toEqual(['percent']);
    expect(missingNumbers('batchSetFans', { mode: 'auto', percent: '' })).toEqual([]);
    expect(missingNumbers('batchAdjustHashRate', { percent: '' })).toEqual(['percent']);
    expect(missingNumbers('batchSetFrequency', { freqMhz: '' })).toEqual(['freqMhz']);
    expect(missingNumbers('batchChangePowerPercent', { percent: 40 })).toEqual([]);
    expect(missingNumbers('batchReboot', {})).toEqual([]);
    expect(paramsBody('batchAdjustHashRate', { percent: '' })).toEqual({});
    expect(paramsBody('batchAdjustHashRate', { percent: 50 })).toEqual({ percent: 65 });
    expect(paramsBody('batchAdjustHashRate', { percent: 120 })).toEqual({ percent: 100 });
  });
});

describe('verification code channels', () => {
  it('offers e-mail when bound, SMS for a phone outside area code 86, and neither when nothing can receive a code', () => {
    expect(codeChannels({ email: 'tech@example.com', mobile: null, areaCode: '86' })).toEqual({ email: true, sms: 'unbound', preferred: 'email' });
    expect(codeChannels({ email: null, mobile: '13800138000', areaCode: '86' })).toEqual({ email: false, sms: 'area86', preferred: null });
    expect(codeChannels({ email: null, mobile: '13800138000', areaCode: '+0086' })).toEqual({ email: false, sms: 'area86', preferred: null });
    expect(codeChannels({ email: null, mobile: '79161234567', areaCode: '7' })).toEqual({ email: false, sms: 'ok', preferred: 'sms' });
    expect(codeChannels({ email: null, mobile: null, areaCode: '86' })).toEqual({ email: false, sms: 'unbound', preferred: null });
    // Not known yet: both offered, the server decides.
    expect(codeChannels(undefined).preferred).toBe('email');
  });
});
