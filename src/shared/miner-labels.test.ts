import { describe, expect, it } from 'vitest';
import { LOCALES } from './validation';
import { MINER_FAULT_LABELS, MINER_STATUSES, errorCodesText, minerLabel, minerLabelOptions, minerStatuses, offlineReasonOf } from './miner-labels';
import { FaultLabel, WorkMode } from './schemas/miner-snapshot';

describe('miner labels', () => {
  it('names every value of every vocabulary in every language', () => {
    expect([...MINER_FAULT_LABELS].sort()).toEqual([...FaultLabel.options].sort());
    for (const locale of LOCALES) {
      for (const kind of ['status', 'faultType', 'workMode', 'network', 'poolStatus', 'agentError', 'offlineReason'] as const) {
        for (const o of minerLabelOptions(locale, kind)) expect(o.text, `${locale} ${kind} ${o.value}`).not.toBe(o.value);
      }
      expect(minerLabelOptions(locale, 'workMode').map((o) => o.value)).toEqual(WorkMode.options);
    }
    expect(minerLabel('ru', 'status', 'offline')).toBe('Не в сети');
    expect(minerLabel('en-US', 'status', 'unknown-thing')).toBe('unknown-thing');
  });

  it('lists the states that hold, online or offline first', () => {
    expect(minerStatuses(true, { qualified: true, sleeping: false })).toEqual(['online', 'qualified']);
    expect(minerStatuses(false, { zeroHashrate: true })).toEqual(['offline', 'zeroHashrate']);
    expect(MINER_STATUSES).toHaveLength(10);
  });

  it("names the agent's own errors in the interface language, a firmware's as the firmware wrote them", () => {
    const errors = [
      { code: -401, message: 'auth-failed: configured web credentials were rejected' },
      { code: 531, message: 'Fan speed error' },
    ];
    const label = (locale: 'zh-CN' | 'en-US' | 'ru') => (kind: Parameters<typeof minerLabel>[1], value: string) => minerLabel(locale, kind, value);
    expect(errorCodesText(errors, label('en-US'))).toBe("-401: The miner refused the farm's logins: add its password under Farm settings → Miner logins; 531: Fan speed error");
    expect(errorCodesText(errors, label('zh-CN'))).toContain('-401: 矿机拒绝了矿场的登录账号');
    expect(errorCodesText([{ code: -403, message: 'x' }], label('ru'))).toBe("-403: API майнера отклоняет команды записи (can't access write cmd)");
    expect(errorCodesText([], label('ru'))).toBe('');
  });

  it("finds an offline miner's agent reason: its first code, when offline and one of the reasons", () => {
    const noAnswer = { code: -110, message: 'timeout' };
    const firmware = { code: 0, message: 'chain 2 not found' };
    expect(offlineReasonOf({ online: false, errorCodes: [noAnswer, firmware] })).toEqual(noAnswer);
    expect(offlineReasonOf({ online: true, errorCodes: [noAnswer] })).toBeNull();
    expect(offlineReasonOf({ online: false, errorCodes: [firmware, noAnswer] })).toBeNull();
    expect(offlineReasonOf({ online: false, errorCodes: [{ code: -401, message: 'auth' }] })).toBeNull();
    expect(offlineReasonOf({ online: false, errorCodes: [] })).toBeNull();
    expect(offlineReasonOf({ online: false })).toBeNull();
  });
});
