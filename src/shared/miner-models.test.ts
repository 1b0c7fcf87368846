import { describe, expect, it } from 'vitest';
import { MINER_MODELS, expectedChips, findMinerModel, getMinerModelById, normaliseModelName } from './miner-models';

describe('miner-models catalogue', () => {
  it('has the required models with sane figures', () => {
    const ids = MINER_MODELS.map((m) => m.id);
    for (const id of ['antminer-s19', 'antminer-s19j-pro', 'antminer-s19-xp', 'antminer-s19-xp-hyd', 'antminer-s21', 'antminer-t21', 'whatsminer-m50s', 'whatsminer-m60s']) {
      expect(ids).toContain(id);
    }
    expect(MINER_MODELS.some((m) => m.firmware === 'braiins' || m.firmware === 'vnish')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const m of MINER_MODELS) {
      expect(m.hashboards).toBeGreaterThan(0);
      expect(m.chipsPerBoard).toBeGreaterThan(0);
      expect(m.idealGhs).toBeGreaterThan(50_000);
      expect(m.powerW).toBeGreaterThan(2000);
      expect(m.workModes).toContain('normal');
      expect(m.workModes).toContain('sleep');
      // efficiency between 12 and 40 J/TH for these generations
      const jth = m.powerW / (m.idealGhs / 1000);
      expect(jth).toBeGreaterThan(12);
      expect(jth).toBeLessThan(40);
    }
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
    expect(findMinerModel('Antminer S21 Pro (Vnish 1.2.7)')?.id).toBe('vnish-s21-pro');
    expect(findMinerModel('M60S_VK40')?.id).toBe('whatsminer-m60s');
    expect(findMinerModel('M60SVK40')?.id).toBe('whatsminer-m60s');
    expect(findMinerModel('M60S_VK43')?.id).toBe('whatsminer-m60s');
    expect(findMinerModel('Antminer L7')).toBeUndefined();
    expect(normaliseModelName('Antminer S21 (AML)')).toBe('S21');
  });
});
