import { describe, expect, it } from 'vitest';
import { clampStep, initialProgress, parseProgress, reachableStep, serialiseProgress, wizardSteps } from './wizard-state';

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
});
