import { describe, expect, it } from 'vitest';
import { checkCapability, firmwareDate, type CapabilityMiner } from './miner-capabilities';

const base: CapabilityMiner = {
  family: 'antminer-stock',
  model: 'S21',
  compileTime: '2024-07-11T16:12:30+08:00',
  rt5s: 200000,
  workMode: 'normal',
  state: { online: true, qualified: true },
};
const m = (o: Partial<CapabilityMiner>): CapabilityMiner => ({ ...base, ...o, state: { ...base.state, ...(o.state ?? {}) } });

describe('capability rules (spec 3 §5)', () => {
  it('hashrate adjust: S21/T21, firmware ≥ 20240520, real > 0, qualified, normal mode', () => {
    expect(checkCapability('adjust-hashrate', base, { percent: 80 })).toEqual({ ok: true });
    expect(checkCapability('adjust-hashrate', m({ model: 'T21' }))).toEqual({ ok: true });
    expect(checkCapability('adjust-hashrate', m({ model: 'S21 Pro' }))).toEqual({ ok: true });
    expect(checkCapability('adjust-hashrate', m({ model: 'S19j Pro' }))).toEqual({ ok: false, reason: 'model-not-supported' });
    expect(checkCapability('adjust-hashrate', m({ compileTime: '2024-05-19T23:00:00+08:00' }))).toEqual({ ok: false, reason: 'firmware-too-old' });
    expect(checkCapability('adjust-hashrate', m({ compileTime: '2024-05-20T00:10:00+08:00' }))).toEqual({ ok: true });
    expect(checkCapability('adjust-hashrate', m({ compileTime: null }))).toEqual({ ok: false, reason: 'firmware-unknown' });
    expect(checkCapability('adjust-hashrate', m({ rt5s: 0 }))).toEqual({ ok: false, reason: 'zero-hashrate' });
    expect(checkCapability('adjust-hashrate', m({ state: { online: true, qualified: false } }))).toEqual({ ok: false, reason: 'not-qualified' });
    expect(checkCapability('adjust-hashrate', m({ workMode: 'low-power' }))).toEqual({ ok: false, reason: 'not-normal-mode' });
    expect(checkCapability('adjust-hashrate', m({ family: 'vnish', model: 'S21 Pro' }))).toEqual({ ok: false, reason: 'firmware-not-supported' });
    expect(checkCapability('adjust-hashrate', base, { percent: 50 })).toEqual({ ok: false, reason: 'percent-out-of-range' });
    expect(checkCapability('adjust-hashrate', m({ state: { online: false, qualified: false } }))).toEqual({ ok: false, reason: 'offline' });
  });
  it('frequency: S19 only', () => {
    expect(checkCapability('set-frequency', m({ model: 'S19' }))).toEqual({ ok: true });
    expect(checkCapability('set-frequency', m({ model: 'S19j Pro' }))).toEqual({ ok: true });
    expect(checkCapability('set-frequency', m({ model: 'S21' }))).toEqual({ ok: false, reason: 'model-not-supported' });
    expect(checkCapability('set-frequency', m({ model: 'M60S VK40', family: 'whatsminer' }))).toEqual({ ok: false, reason: 'firmware-not-supported' });
  });
  it('power percent: S19 and S19 XP Hyd with firmware after 2024-09 (and T21)', () => {
    expect(checkCapability('power-percent', m({ model: 'S19', compileTime: '2024-10-15T16:12:30+08:00' }))).toEqual({ ok: true });
    expect(checkCapability('power-percent', m({ model: 'S19 XP Hydro', compileTime: '2025-03-12T16:12:30+08:00' }))).toEqual({ ok: true });
    expect(checkCapability('power-percent', m({ model: 'S19 XP Hyd', compileTime: '2024-09-30T16:12:30+08:00' }))).toEqual({ ok: false, reason: 'firmware-too-old' });
    expect(checkCapability('power-percent', m({ model: 'T21', compileTime: '2024-11-20T16:12:30+08:00' }))).toEqual({ ok: true });
    expect(checkCapability('power-percent', m({ model: 'S21', compileTime: '2025-10-09T16:12:30+08:00' }))).toEqual({ ok: false, reason: 'model-not-supported' });
  });
  it('other ops need the miner online; remove always works', () => {
    expect(checkCapability('reboot', base)).toEqual({ ok: true });
    expect(checkCapability('reboot', m({ state: { online: false, qualified: false } }))).toEqual({ ok: false, reason: 'offline' });
    expect(checkCapability('remove', m({ state: { online: false, qualified: false } }))).toEqual({ ok: true });
  });
  it('firmware date from compileTime date part or a dated version string', () => {
    expect(firmwareDate({ compileTime: '2024-05-20T01:00:00+08:00' })).toBe(20240520);
    expect(firmwareDate({ compileTime: null, firmwareVersion: "'20230803.11.REL'" })).toBe(20230803);
    expect(firmwareDate({ compileTime: null, firmwareVersion: '1.2.7' })).toBeNull();
  });
});
