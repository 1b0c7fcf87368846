import { describe, expect, it } from 'vitest';
import { clampStep, initialProgress, isAreaId, parseProgress, reachableStep, serialiseProgress, wizardSteps } from './wizard-state';

describe('add-farm wizard state', () => {
  it('has the farm step only when creating', () => {
    expect(wizardSteps('create')).toEqual(['install', 'farm', 'ipRange', 'customers', 'pools', 'security']);
    expect(wizardSteps('existing')).toEqual(['install', 'ipRange', 'customers', 'pools', 'security']);
  });

  it('keeps the step in range', () => {
    expect(clampStep('create', 9)).toBe(5);
    expect(clampStep('existing', 5)).toBe(4);
    expect(clampStep('create', -1)).toBe(0);
    expect(clampStep('create', Number.NaN)).toBe(0);
  });

  it('cannot be past the farm step without a farm', () => {
    expect(reachableStep({ mode: 'create', agentKey: null, step: 4 })).toBe(1);
    expect(reachableStep({ mode: 'create', agentKey: 'f1', step: 4 })).toBe(4);
  });

  it('round-trips the saved progress and rejects damaged values', () => {
    const p = { mode: 'create' as const, agentKey: 'f1', step: 3 };
    expect(parseProgress(serialiseProgress(p))).toEqual(p);
    expect(parseProgress('{')).toBeNull();
    expect(parseProgress('{"mode":"other"}')).toBeNull();
    expect(parseProgress('{"mode":"existing","step":2}')).toBeNull();
    expect(parseProgress('{"mode":"create","agentKey":null,"step":5}')).toEqual({ mode: 'create', agentKey: null, step: 1 });
  });

  it('resumes from the URL or the saved progress', () => {
    const saved = { mode: 'create' as const, agentKey: 'f1', step: 3 };
    expect(initialProgress({ agentKey: null, step: null }, saved)).toEqual(saved);
    expect(initialProgress({ agentKey: 'f1', step: '4' }, saved)).toEqual({ ...saved, step: 4 });
    expect(initialProgress({ agentKey: 'other', step: null }, saved)).toEqual({ mode: 'existing', agentKey: 'other', step: 0 });
    expect(initialProgress({ agentKey: null, step: null }, null)).toEqual({ mode: 'create', agentKey: null, step: 0 });
  });

  it('has the installer variant: check equipment, change file, restart service, sub-mining area, IP segment', () => {
    expect(wizardSteps('installer')).toEqual(['checkEquipment', 'changeFile', 'restartService', 'subArea', 'ipSegment']);
    expect(clampStep('installer', 9)).toBe(4);
  });

  it('keeps the installer variant and its sub-mining area (id at least 1) across a resume', () => {
    const p = { mode: 'installer' as const, agentKey: 'f1', step: 4, areaId: 7 };
    expect(parseProgress(serialiseProgress(p))).toEqual(p);
    expect(parseProgress('{"mode":"installer","agentKey":"f1","step":3,"areaId":0}')).toEqual({ mode: 'installer', agentKey: 'f1', step: 3 });
    expect(parseProgress('{"mode":"installer","agentKey":"f1","step":3,"areaId":1.5}')).toEqual({ mode: 'installer', agentKey: 'f1', step: 3 });
    expect(parseProgress('{"mode":"installer","agentKey":null,"step":3}')).toBeNull();
    expect(initialProgress({ agentKey: 'f1', step: null, variant: 'installer' }, null)).toEqual({ mode: 'installer', agentKey: 'f1', step: 0 });
    expect(initialProgress({ agentKey: 'f1', step: '2', variant: 'installer' }, p)).toEqual({ ...p, step: 2 });
    // The other variant of the same farm starts over.
    expect(initialProgress({ agentKey: 'f1', step: null, variant: null }, p)).toEqual({ mode: 'existing', agentKey: 'f1', step: 0 });
    expect([0, -1, 1.5, '3', null].some(isAreaId)).toBe(false);
    expect(isAreaId(1)).toBe(true);
  });
});
