import { describe, expect, it } from 'vitest';
import { LOCALES } from './validation';
import { MINER_FAULT_LABELS, MINER_STATUSES, minerLabel, minerLabelOptions, minerStatuses } from './miner-labels';
import { FaultLabel, WorkMode } from './schemas/miner-snapshot';

describe('miner labels', () => {
  it('names every value of every vocabulary in every language', () => {
    expect([...MINER_FAULT_LABELS].sort()).toEqual([...FaultLabel.options].sort());
    for (const locale of LOCALES) {
      for (const kind of ['status', 'faultType', 'workMode', 'network', 'poolStatus'] as const) {
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
});
