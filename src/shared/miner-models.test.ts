import { describe, expect, it } from 'vitest';
import {
  KNOWN_MINER_MODELS,
  MINER_MODELS,
  RECOGNISED_MODELS,
  type MinerModel,
  expectedChips,
  findMinerModel,
  getMinerModelById,
  normaliseModelName,
} from './miner-models';

describe('miner-models catalogue', () => {
  it('has the required models with sane figures', () => {
    const ids = MINER_MODELS.map((m) => m.id);
    for (const id of ['antminer-s19', 'antminer-s19j-pro', 'antminer-s19-xp', 'antminer-s19-xp-hyd', 'antminer-s21', 'antminer-t21', 'whatsminer-m50s', 'whatsminer-m60s']) {
      expect(ids).toContain(id);
    }
    expect(MINER_MODELS.some((m) => m.firmware === 'braiins' || m.firmware === 'vnish')).toBe(true);
    const known = KNOWN_MINER_MODELS.map((m) => m.id);
    expect(new Set(known).size).toBe(known.length);
    for (const m of KNOWN_MINER_MODELS) {
      expect(m.hashboards).toBeGreaterThan(0);
      expect(m.chipsPerBoard).toBeGreaterThan(0);
      expect(m.idealGhs).toBeGreaterThan(50_000);
      expect(m.powerW).toBeGreaterThan(2000);
      expect(m.workModes).toContain('normal');
      expect(m.workModes).toContain('sleep');
      // efficiency between 9 (S23 Hyd.) and 45 J/TH (M31S+) for these generations
      const jth = m.powerW / (m.idealGhs / 1000);
      expect(jth).toBeGreaterThan(9);
      expect(jth).toBeLessThan(45);
      // no fans of its own exactly when liquid-cooled
      expect(m.fans === 0).toBe(m.cooling !== 'air');
      expect(m.freqMhz).toBeGreaterThanOrEqual(0);
      expect(m.chipsPerDomain).toBeGreaterThan(0);
    }
  });

  it('simulates exactly the ten simulated models (recognised-only models never reach the simulator)', () => {
    // src/simulator/fleet.ts builds fleets from MINER_MODELS: this list is the simulated mix
    expect(MINER_MODELS.map((m) => m.id)).toEqual([
      'antminer-s19', 'antminer-s19j-pro', 'antminer-s19-xp', 'antminer-s19-xp-hyd', 'antminer-s21', 'antminer-t21',
      'whatsminer-m50s', 'whatsminer-m60s', 'braiins-s19j-pro', 'vnish-s21-pro',
    ]);
    const simulated = new Set(MINER_MODELS.map((m) => m.id));
    expect(RECOGNISED_MODELS.some((m) => simulated.has(m.id))).toBe(false);
    expect(KNOWN_MINER_MODELS).toEqual([...MINER_MODELS, ...RECOGNISED_MODELS]);
  });

  it('matches §8.4 chip/board/fan constants', () => {
    const c = (id: string) => getMinerModelById(id)!;
    expect([c('antminer-s19').chipsPerBoard, c('antminer-s19j-pro').chipsPerBoard, c('antminer-s19-xp').chipsPerBoard]).toEqual([76, 126, 110]);
    expect(c('antminer-s19-xp-hyd').chipsPerBoard).toBe(204);
    expect(c('antminer-s19-xp-hyd').fans).toBe(0);
    expect(c('antminer-s21').chipsPerBoard).toBe(108);
    expect(c('antminer-t21').chipsPerBoard).toBe(108);
    expect(c('whatsminer-m60s').fans).toBe(2);
    expect(expectedChips(c('antminer-s19j-pro'))).toBe(378);
  });

  it('finds models by every name a firmware reports', () => {
    expect(findMinerModel('Antminer S19j Pro')?.id).toBe('antminer-s19j-pro');
    expect(findMinerModel('ANTMINER S19J PRO')?.id).toBe('antminer-s19j-pro');
    expect(findMinerModel('Bitmain Antminer S19j Pro', 'braiins')?.id).toBe('braiins-s19j-pro');
    expect(findMinerModel('Antminer S19XP')?.id).toBe('antminer-s19-xp');
    expect(findMinerModel('Antminer S19 XP Hyd.')?.id).toBe('antminer-s19-xp-hyd');
    expect(findMinerModel('Antminer S21 Pro (Vnish 1.2.7)', 'vnish')?.id).toBe('vnish-s21-pro');
    // without a firmware the stock entry of the same hardware is preferred
    expect(findMinerModel('Antminer S21 Pro (Vnish 1.2.7)')?.id).toBe('antminer-s21-pro');
    expect(findMinerModel('M60S_VK40')?.id).toBe('whatsminer-m60s');
    expect(findMinerModel('M60SVK40')?.id).toBe('whatsminer-m60s');
    expect(findMinerModel('M60S_VK43')?.id).toBe('whatsminer-m60s');
    expect(findMinerModel('Antminer L7')).toBeUndefined();
    expect(normaliseModelName('Antminer S21 (AML)')).toBe('S21');
  });

  it('finds every recognised Antminer by its stock Type, with and without the vendor prefixes', () => {
    const cases: Array<[string, string]> = [
      ['Antminer S19 Pro', 'antminer-s19-pro'],
      ['Antminer S19k Pro', 'antminer-s19k-pro'],
      ['Antminer S19K Pro', 'antminer-s19k-pro'],
      ['Antminer S19j Pro+', 'antminer-s19j-pro-plus'],
      ['Antminer T19', 'antminer-t19'],
      ['Antminer S21 Pro', 'antminer-s21-pro'],
      ['Antminer S21+', 'antminer-s21-plus'],
      ['Antminer S21 XP', 'antminer-s21-xp'],
      ['Antminer S21 Hyd.', 'antminer-s21-hyd'],
      ['Antminer S21+ Hyd.', 'antminer-s21-plus-hyd'],
      ['Antminer S21 XP Hyd.', 'antminer-s21-xp-hyd'],
      ['Antminer S23 Hyd.', 'antminer-s23-hyd'],
    ];
    for (const [reported, id] of cases) {
      const bare = reported.replace(/^Antminer /, '');
      for (const name of [reported, `Bitmain ${reported}`, bare, reported.toUpperCase()]) {
        expect(findMinerModel(name)?.id, name).toBe(id);
        expect(findMinerModel(name, 'stock')?.id, name).toBe(id);
      }
    }
    // hydro spellings: without the dot, spelled out
    expect(findMinerModel('Antminer S21+ Hyd')?.id).toBe('antminer-s21-plus-hyd');
    expect(findMinerModel('Antminer S21 XP Hydro')?.id).toBe('antminer-s21-xp-hyd');
    // another firmware on the same hardware falls back to the stock figures
    expect(findMinerModel('Bitmain Antminer S19k Pro', 'braiins')?.id).toBe('antminer-s19k-pro');
    expect(findMinerModel('Antminer S21 XP (Vnish 1.2.7)', 'vnish')?.id).toBe('antminer-s21-xp');
    // the simulated S21 / S19 XP Hyd. are not shadowed by their +/XP/Hyd siblings
    expect(findMinerModel('Antminer S21')?.id).toBe('antminer-s21');
    expect(findMinerModel('Antminer S19 XP Hyd.')?.id).toBe('antminer-s19-xp-hyd');
  });

  it('finds every recognised Whatsminer by its devdetails Model, bin suffix included', () => {
    const cases: Array<[string[], string]> = [
      [['M30S_VH60', 'M30SVH60', 'M30S VH60', 'M30S_VH61'], 'whatsminer-m30s-vh60'],
      [['M30S+_VE40', 'M30S+VE40', 'M30S+_VE43'], 'whatsminer-m30s-plus-ve40'],
      [['M30S++_VH40', 'M30S++VH40', 'M30S++ VH40', 'M30S++_VH41'], 'whatsminer-m30s-plus-plus-vh40'],
      [['M30S++_VH90', 'M30S++_VH95'], 'whatsminer-m30s-plus-plus-vh90'],
      [['M31S+_V100', 'M31S+V100'], 'whatsminer-m31s-plus-v100'],
      [['M31S+_V80', 'M31S+_V85'], 'whatsminer-m31s-plus-v80'],
      [['M50_VH90', 'M50VH90'], 'whatsminer-m50-vh90'],
      [['M50_VH70', 'M50_VH75'], 'whatsminer-m50-vh70'],
      [['M50S+_VK20', 'M50S+VK20'], 'whatsminer-m50s-plus-vk20'],
      [['M53S_VH30', 'M53SVH30', 'M53S_VH33'], 'whatsminer-m53s-vh30'],
      [['M56S_VH30', 'M56S VH30'], 'whatsminer-m56s-vh30'],
      [['M60_VK20', 'M60VK20'], 'whatsminer-m60-vk20'],
    ];
    for (const [names, id] of cases) {
      for (const name of names) {
        expect(findMinerModel(name)?.id, name).toBe(id);
        expect(findMinerModel(name, 'btminer')?.id, name).toBe(id);
      }
    }
    // another bin of the same family has other chips: not matched
    expect(findMinerModel('M30S++_VG40')).toBeUndefined();
    expect(findMinerModel('M50_VH30')).toBeUndefined();
    // the families stay apart (M30S / M30S+ / M30S++, M50 / M50S / M50S+, M60 / M60S)
    expect(findMinerModel('M30S_VE40')).toBeUndefined();
    expect(findMinerModel('M50S_VH30')?.id).toBe('whatsminer-m50s');
    expect(findMinerModel('M60S_VK40')?.id).toBe('whatsminer-m60s');
  });

  it('gives the recognised models their boards, chips and fans (0 fans when hydro or immersion)', () => {
    const c = (id: string) => getMinerModelById(id)!;
    const shape = (id: string) => [c(id).hashboards, c(id).chipsPerBoard, c(id).fans, c(id).cooling];
    expect(shape('antminer-s19-pro')).toEqual([3, 114, 4, 'air']);
    expect(shape('antminer-s19k-pro')).toEqual([3, 77, 4, 'air']);
    expect(shape('antminer-s19j-pro-plus')).toEqual([3, 120, 4, 'air']);
    expect(shape('antminer-t19')).toEqual([3, 76, 4, 'air']);
    expect(shape('antminer-s21-pro')).toEqual([3, 65, 4, 'air']);
    expect(shape('antminer-s21-plus')).toEqual([3, 55, 4, 'air']);
    expect(shape('antminer-s21-xp')).toEqual([3, 91, 4, 'air']);
    expect(shape('antminer-s21-hyd')).toEqual([3, 216, 0, 'hydro']);
    expect(shape('antminer-s21-plus-hyd')).toEqual([3, 95, 0, 'hydro']);
    expect(shape('antminer-s21-xp-hyd')).toEqual([3, 160, 0, 'hydro']);
    expect(shape('antminer-s23-hyd')).toEqual([3, 84, 0, 'hydro']);
    expect(shape('whatsminer-m30s-plus-plus-vh40')).toEqual([3, 70, 2, 'air']);
    expect(shape('whatsminer-m53s-vh30')).toEqual([4, 204, 0, 'hydro']);
    expect(shape('whatsminer-m56s-vh30')).toEqual([4, 152, 0, 'immersion']);
    expect(shape('whatsminer-m60-vk20')).toEqual([3, 172, 2, 'air']);
    expect(expectedChips(c('antminer-s21-xp-hyd'))).toBe(480);
    // the stock S21 Pro has the figures of the simulated VNish one (same hardware)
    const hw = (m: MinerModel) => [m.make, m.model, m.hashboards, m.chipsPerBoard, m.fans, m.cooling, m.idealGhs, m.powerW];
    expect(hw(c('antminer-s21-pro'))).toEqual(hw(c('vnish-s21-pro')));
  });
});
