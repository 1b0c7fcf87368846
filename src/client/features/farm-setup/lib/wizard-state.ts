/**
 * The add-farm wizard's state (spec 2 §2, §4): the steps in order — agent install, farm creation (only when
 * a farm is being created), IP range limit, customers, pool config, security settings — the step index
 * moving forward or back, and the saved progress that lets the wizard resume after the user leaves.
 */
export const STEP_KEYS = ['install', 'farm', 'ipRange', 'customers', 'pools', 'security'] as const;
export type StepKey = (typeof STEP_KEYS)[number];
export type WizardMode = 'create' | 'existing';

export interface WizardProgress {
  mode: WizardMode;
  /** The farm set up (created by the wizard in mode create, once the farm step is left). */
  agentKey: string | null;
  step: number;
}

export const WIZARD_STORAGE_KEY = 'hf.newMining';

/** The farm-creation step exists only when a farm is being created. */
export function wizardSteps(mode: WizardMode): StepKey[] {
  return STEP_KEYS.filter((k) => mode === 'create' || k !== 'farm');
}

export function clampStep(mode: WizardMode, step: number): number {
  const last = wizardSteps(mode).length - 1;
  if (!Number.isFinite(step)) return 0;
  return Math.min(Math.max(0, Math.trunc(step)), last);
}

/**
 * Steps after the farm step need the farm: without an agentKey the wizard cannot be past it (a creation
 * that never happened), so it goes back to the farm step (or the first step of an existing farm).
 */
export function reachableStep(p: WizardProgress): number {
  const steps = wizardSteps(p.mode);
  const step = clampStep(p.mode, p.step);
  if (p.agentKey) return step;
  const needsFarm = steps.indexOf(p.mode === 'create' ? 'farm' : 'install');
  return Math.min(step, needsFarm);
}

export function parseProgress(raw: string | null): WizardProgress | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<WizardProgress>;
    if (v.mode !== 'create' && v.mode !== 'existing') return null;
    const agentKey = typeof v.agentKey === 'string' && v.agentKey ? v.agentKey : null;
    if (v.mode === 'existing' && !agentKey) return null;
    const p: WizardProgress = { mode: v.mode, agentKey, step: typeof v.step === 'number' ? v.step : 0 };
    return { ...p, step: reachableStep(p) };
  } catch {
    return null;
  }
}

export function serialiseProgress(p: WizardProgress): string {
  return JSON.stringify({ mode: p.mode, agentKey: p.agentKey, step: p.step });
}

/** The progress the page starts from: the URL (?agentKey= sets up an existing farm) wins, then the saved one. */
export function initialProgress(query: { agentKey: string | null; step: string | null }, saved: WizardProgress | null): WizardProgress {
  if (query.agentKey) {
    if (saved && saved.agentKey === query.agentKey) return { ...saved, step: query.step === null ? saved.step : clampStep(saved.mode, Number(query.step)) };
    return { mode: 'existing', agentKey: query.agentKey, step: query.step === null ? 0 : clampStep('existing', Number(query.step)) };
  }
  if (saved) return saved;
  return { mode: 'create', agentKey: null, step: 0 };
}
