import { describe, expect, it } from 'vitest';
import { computeFaultLabels } from '../state-flags';
import type { MinerReading } from '../miner-types';
import { parseAntminerStats } from './antminer-stock';

/**
 * `stats` replies in the shapes real stock firmware sends (key names, types and layout of recorded units; the values
 * here are made up). Each case pins a variant the parser once mis-read.
 */

function ok(code: number, msg: string) {
  return [{ STATUS: 'S', When: 1760000000, Code: code, Msg: msg, Description: 'cgminer 1.0.0' }];
}

/** A reading around parsed stats, for the fault labels a snapshot of it would get (no catalogue entry). */
function readingOf(st: ReturnType<typeof parseAntminerStats>): MinerReading {
  return {
    ip: '10.0.0.9', mac: 'AA:BB:CC:00:11:22', sn: 'SN1', make: 'Antminer', model: st.type, family: 'antminer-stock',
    firmwareVersion: st.compileTime, compileTime: null, rt5s: st.rt5s, rate30m: st.rate30m, avg: st.avg, ideal: st.ideal,
    boards: st.boards, fans: st.fans, pools: [], workMode: 'normal', elapsedSec: st.elapsed, errorCodes: [],
  };
}

/** Chip string of `groups` domains of `per` chips, the last one padded with `pad` dashes (no chip in those places). */
function acs(groups: number, per: number, pad = 0): string {
  const full = Array.from({ length: groups }, () => 'o'.repeat(per));
  if (pad > 0) full[groups - 1] = 'o'.repeat(per - pad) + '-'.repeat(pad);
  return ' ' + full.join(' ');
}

describe('parseAntminerStats: old flat layout', () => {
  // a hydro unit parsed without its catalogue entry (S21 XP Hyd. has one now; other Hyd. units may not): the stock build
  // reports fan_num 4 with every fan at 0 (no fans of its own)
  const hydOld = {
    STATUS: ok(70, 'CGMiner stats'),
    STATS: [
      { BMMiner: '1.0.0', Miner: '71.0.1.3', CompileTime: 'Tue Feb 10 11:20:05 CST 2026', Type: 'Antminer S21 XP Hyd.' },
      {
        STATS: 0, ID: 'BTM_SOC0', Elapsed: 91234, 'GHS 5s': 470012.5, 'GHS av': 468800.25, rate_30m: 469100.0, Mode: 2,
        miner_count: 3, frequency: 490, fan_num: 4, fan1: 0, fan2: 0, fan3: 0, fan4: 0, temp_num: 3,
        temp1: 51, temp2: 50, temp3: 52, temp2_1: 62, temp2_2: 61, temp2_3: 63,
        temp_pcb1: '37-47-46-51', temp_pcb2: '38-47-46-50', temp_pcb3: '37-48-47-52', temp_pcb4: '0-0-0-0',
        temp_chip1: '62-58-55-60', temp_chip2: '61-57-55-60', temp_chip3: '63-58-56-61', temp_chip4: '0-0-0-0',
        temp_pic1: '53-46-52-48', temp_pic2: '52-46-52-48', temp_pic3: '54-47-53-49', temp_pic4: '0-0-0-0',
        total_rateideal: 473000.0, rate_unit: 'GH', total_freqavg: 490, total_acn: 480, 'total rate': 468800.25,
        chain_acn1: 160, chain_acn2: 160, chain_acn3: 160, chain_acn4: 0,
        chain_acs1: acs(20, 8), chain_acs2: acs(20, 8), chain_acs3: acs(20, 8), chain_acs4: '',
        chain_hw1: 120, chain_hw2: 33, chain_hw3: 17, chain_hw4: 0,
        chain_rate1: '157001.20', chain_rate2: '155910.05', chain_rate3: '157101.25', chain_rate4: '',
        freq1: 490, freq2: 490, freq3: 490, freq4: 0, miner_version: '71.0.1.3', miner_id: '80aa11bb22cc33dd',
      },
    ],
    id: 1,
  };

  it('hydro unit with fan_num 4 and all fans 0: no fans, no fan fault', () => {
    const st = parseAntminerStats(hydOld, {});
    expect(st.type).toBe('Antminer S21 XP Hyd.');
    expect(st.fans).toEqual([]);
    expect(st.boards.map((b) => b.rateGhs)).toEqual([157001.2, 155910.05, 157101.25]);
    expect(st.boards.map((b) => b.chips)).toEqual([160, 160, 160]);
    expect(st.boards[0]?.tempPcb).toEqual([37, 47, 46, 51]);
    expect(st.boards[0]?.tempChip).toEqual([62, 58, 55, 60]);
    expect(st.rt5s).toBe(470012.5);
    expect(st.ideal).toBe(473000);
    expect(computeFaultLabels(readingOf(st), undefined)).toEqual([]);
  });

  it('an air-cooled unit with fan_num 4 keeps its stopped fan (still a fan fault)', () => {
    const air = structuredClone(hydOld);
    air.STATS[0]!.Type = 'Antminer S21';
    Object.assign(air.STATS[1]!, { fan1: 4320, fan2: 4380, fan3: 0, fan4: 4350 });
    const st = parseAntminerStats(air, {});
    expect(st.fans).toEqual([4320, 4380, 0, 4350]);
    expect(computeFaultLabels(readingOf(st), undefined)).toContain('fan-speed-abnormal');
  });

  it('chain_acs padded with "-" in the last domain (84 chips in groups of 11) is no bad chip', () => {
    const padded = structuredClone(hydOld);
    const flat = padded.STATS[1] as Record<string, unknown>;
    Object.assign(flat, { chain_acn1: 84, chain_acn2: 84, chain_acn3: 84, chain_acs1: acs(8, 11, 4), chain_acs2: acs(8, 11, 4) });
    // a real bad chip on chain 3 is still reported
    flat['chain_acs3'] = acs(8, 11, 4).replace(/o/, 'x');
    const st = parseAntminerStats(padded, { boards: 3, chipsPerBoard: 84, fans: 0 });
    expect(flat['chain_acs1']).toMatch(/ooooooo----$/);
    expect(st.boards[0]?.chipStatus).toBeUndefined();
    expect(st.boards[1]?.chipStatus).toBeUndefined();
    expect(st.boards[2]?.chipStatus).toBe('x' + 'o'.repeat(83));
  });

  it('16-slot layout with numeric chain_rate (0.0 in empty slots): only the populated chains', () => {
    const flat: Record<string, unknown> = { STATS: 0, ID: 'BC50', Elapsed: 7200, 'GHS 5s': 6890.5, 'GHS av': 6700.25, miner_count: 3, fan_num: 4, total_rateideal: 64000.0 };
    for (let n = 1; n <= 16; n++) {
      const on = n <= 3;
      flat[`chain_acn${n}`] = on ? 88 : 0;
      flat[`chain_acs${n}`] = on ? acs(44, 2) : '';
      flat[`chain_rate${n}`] = on ? 2290.5 + n : 0.0;
      flat[`chain_rateideal${n}`] = 21333.33;
      flat[`temp_pcb${n}`] = on ? '48-48-48-48' : '0-0-0-0';
      flat[`temp_chip${n}`] = on ? '58-58-58-58' : '0-0-0-0';
      flat[`chain_hw${n}`] = on ? 7 : 0;
      flat[`freq${n}`] = on ? 465 : 0;
    }
    for (let n = 1; n <= 8; n++) flat[`fan${n}`] = n <= 4 ? 3050 : 0;
    const st = parseAntminerStats({ STATUS: ok(70, 'BMMiner stats'), STATS: [{ BMMiner: '4.11.1', CompileTime: 'Thu Apr 10 18:12:59 UTC 2025', Type: 'Antminer S19' }, flat], id: 1 }, {});
    expect(st.boards).toHaveLength(3);
    expect(st.boards.map((b) => b.rateGhs)).toEqual([2291.5, 2292.5, 2293.5]);
    expect(st.fans).toEqual([3050, 3050, 3050, 3050]);
    expect(computeFaultLabels(readingOf(st), undefined)).not.toContain('missing-hashboard');
  });

  it('stock S19j Pro shape: chain_rate strings, dash temps, GH units, 4th slot empty', () => {
    const flat: Record<string, unknown> = {
      STATS: 0, ID: 'BTM_SOC0', Elapsed: 3600, 'GHS 5s': '101234.56', 'GHS av': 100987.1, rate_30m: 101001.0, miner_count: 3, fan_num: 4,
      fan1: 5520, fan2: 5400, fan3: 5100, fan4: 5040, total_rateideal: 102000.0, rate_unit: 'GH',
      chain_acn1: 126, chain_acn2: 126, chain_acn3: 120, chain_acn4: 0,
      chain_acs1: acs(42, 3), chain_acs2: acs(42, 3), chain_acs3: acs(40, 3), chain_acs4: '',
      chain_rate1: '34200.11', chain_rate2: '33900.22', chain_rate3: '33100.33', chain_rate4: '',
      temp_pcb1: '54-52-67-68', temp_pcb2: '53-54-67-68', temp_pcb3: '52-53-66-69', temp_pcb4: '0-0-0-0',
      temp_chip1: '59-57-72-73', temp_chip2: '58-59-72-73', temp_chip3: '57-58-71-74', temp_chip4: '0-0-0-0',
      freq1: 525, freq2: 525, freq3: 525, freq4: 0,
    };
    const st = parseAntminerStats({ STATUS: ok(70, 'CGMiner stats'), STATS: [{ BMMiner: '1.0.0', CompileTime: 'Tue Dec  6 16:12:30 CST 2022', Type: 'Antminer S19j Pro' }, flat], id: 1 }, { boards: 3, chipsPerBoard: 126, fans: 4 });
    expect(st.rt5s).toBe(101234.56);
    expect(st.boards.map((b) => b.rateGhs)).toEqual([34200.11, 33900.22, 33100.33]);
    expect(st.boards.map((b) => b.chips)).toEqual([126, 126, 120]);
    expect(st.boards[2]?.tempChip).toEqual([57, 58, 71, 74]);
    expect(st.boards[0]?.freqMhz).toBe(525);
    expect(st.fans).toEqual([5520, 5400, 5100, 5040]);
  });
});

describe('parseAntminerStats: new layout (stats.cgi / new_api)', () => {
  it('hydro build with fan [], fan_num 0, `watt` power and dash-padded asic strings', () => {
    const chain = (index: number, rate: number) => ({
      index, freq_avg: 330, rate_ideal: 194000.5, rate_real: rate, asic_num: 84, asic: acs(8, 11, 4),
      temp_pic: [35, 35, 43, 43], temp_pcb: [45, 45, 53, 53], temp_chip: [45, 45, 57, 57], sn: `HBSN0000${index}`,
    });
    const reply = {
      STATUS: { STATUS: 'S', when: 1760000000, Msg: 'stats', api_version: '1.0.0' },
      INFO: { miner_version: 'platform[AML]', CompileTime: 'Fri Jun 26 09:24:23 CST 2026', type: 'Antminer S23 Hyd.', miner_type_enum: 1 },
      STATS: [{
        elapsed: 4000, rate_5s: 575000.25, rate_avg: 574000.5, rate_ideal: 582000.0, rate_unit: 'GH/s', chain_num: 3, fan_num: 0, fan: [],
        watt: 5510, chain: [chain(0, 190100.5), chain(1, 191200.25), chain(2, 192300.75)],
      }],
    };
    const st = parseAntminerStats(reply, {});
    expect(st.type).toBe('Antminer S23 Hyd.');
    expect(st.rt5s).toBe(575000.25);
    expect(st.ideal).toBe(582000);
    expect(st.powerW).toBe(5510);
    expect(st.fans).toEqual([]);
    expect(st.boards.map((b) => b.rateGhs)).toEqual([190100.5, 191200.25, 192300.75]);
    expect(st.boards.every((b) => b.chipStatus === undefined)).toBe(true);
    expect(st.boards[1]?.sn).toBe('HBSN00001');
    expect(computeFaultLabels(readingOf(st), undefined)).toEqual([]);
  });

  it('S21 shape: chain_power "3510 W", fan array, GH/s', () => {
    const reply = {
      STATUS: { STATUS: 'S', when: 1760000000, Msg: 'stats', api_version: '1.0.0' },
      INFO: { miner_version: 'uart_trans.1.3', CompileTime: 'Thu Jul 11 16:38:25 CST 2024', type: 'Antminer S21' },
      STATS: [{
        elapsed: 100, rate_5s: 200100.5, rate_avg: 199000.0, rate_30m: 199500.0, rate_ideal: 200000.0, rate_unit: 'GH/s', fan_num: 4,
        fan: [4300, 4310, 4290, 4280], chain_power: '3510 W', 'miner-mode': 0,
        chain: [0, 1, 2].map((index) => ({ index, freq_avg: 490, rate_real: 66700.5, asic_num: 108, asic: acs(27, 4), temp_pcb: [52, 52, 67, 67], temp_chip: [57, 57, 72, 72], hw: 1 })),
      }],
    };
    const st = parseAntminerStats(reply, { boards: 3, chipsPerBoard: 108, fans: 4 });
    expect(st.powerW).toBe(3510);
    expect(st.fans).toEqual([4300, 4310, 4290, 4280]);
    expect(st.boards.map((b) => b.rateGhs)).toEqual([66700.5, 66700.5, 66700.5]);
    expect(st.mode).toBe('normal');
  });
});
