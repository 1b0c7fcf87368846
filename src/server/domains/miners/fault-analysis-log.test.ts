import { describe, expect, it } from 'vitest';
import { analyseLog, mergeLogFindings } from './fault-analysis-log';
import type { RawFinding } from './fault-analysis-rules';

/** A stock Antminer's kernel log: boot noise around the error lines the analysis looks for. */
const LOG = `
[    0.000000] Booting Linux on physical CPU 0x0
[    2.301245] i2c /dev entries driver
2026-11-28 08:00:01 load chain 2 eeprom error, Data load fail for chain 2
2026-11-28 08:00:02 Chain 0 only find 101 asic, will power off hash board 0
2026-11-28 08:00:09 Chain 0 only find 98 asic, will power off hash board 0
2026-11-28 08:01:00 ERROR_FAN_LOST: fan 1 lost, please check fan
2026-11-28 08:02:00 fail to read pic temp for chain 1
2026-11-28 08:03:00 i2c: timeout waiting for bus ready
2026-11-28 08:04:00 read temp sensor failed: chain = 1
2026-11-28 08:05:00 ERROR_POWER_LOST: power lost
2026-11-28 08:06:00 FW type S19jPro, hashboard shows S19XP.
2026-11-28 08:07:00 stop_mining: asic temp too high
2026-11-28 08:07:30 temp is normal, chain 0 asic temperature 71
`;

describe('fault analysis of the miner log', () => {
  it('finds each kind of error line once per board, counted, most serious first', () => {
    const found = analyseLog(LOG);
    expect(found.map((f) => [f.code, f.severity, f.params])).toEqual([
      ['logPowerLost', 'critical', { count: 1 }],
      ['logFanLost', 'critical', { count: 1 }],
      ['logOverheat', 'critical', { count: 1 }],
      ['logChainChips', 'critical', { board: 1, chips: 98, count: 2 }],
      ['logChainEeprom', 'critical', { board: 3, count: 1 }],
      ['logWrongFirmware', 'critical', { type: 'S19jPro', found: 'S19XP', count: 1 }],
      ['logPicTemp', 'warning', { board: 2, count: 1 }],
      ['logTempSensor', 'warning', { board: 2, count: 1 }],
      ['logI2c', 'warning', { count: 1 }],
    ]);
    expect(analyseLog('[    0.1] Booting Linux\nsystem reboot requested\n')).toEqual([]);
  });

  it('adds what the reading does not already show, and drops "healthy" when the log finds something', () => {
    const reading: RawFinding[] = [
      { code: 'missingChips', severity: 'critical', params: { board: 1, chips: 98, expected: 126 } },
      { code: 'restarted', severity: 'info', params: { minutes: 3 } },
    ];
    const merged = mergeLogFindings(reading, analyseLog(LOG));
    // the log's "only find 98" on board 1 repeats the reading; its board 3 and the rest are new
    expect(merged.map((f) => f.code)).toEqual(['missingChips', 'logPowerLost', 'logFanLost', 'logOverheat', 'logChainEeprom', 'logWrongFirmware', 'logPicTemp', 'logTempSensor', 'logI2c', 'restarted']);
    const healthy: RawFinding[] = [{ code: 'healthy', severity: 'info', params: {} }];
    expect(mergeLogFindings(healthy, analyseLog('ERROR_FAN_LOST: fan 3 lost')).map((f) => f.code)).toEqual(['logFanLost']);
    expect(mergeLogFindings(healthy, [])).toEqual(healthy);
  });
});
