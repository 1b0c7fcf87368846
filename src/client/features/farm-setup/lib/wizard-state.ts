/**
 * The add-farm wizard's state (spec 2 §2, §4): the steps in order — agent install, farm creation (only when
 * a farm is being created), IP range limit, customers, pool config, security settings — the step index
 * moving forward or back, and the saved progress that lets the wizard resume after the user leaves.
 * The installer variant (spec 2 §2 "another wizard variant", spec 3 §4) is for the agent's computer of an
 * existing farm: check equipment, change file, restart service, create sub-mining area, set IP segment.
 */
export const STEP_KEYS = ['install', 'farm', 'ipRange', 'customers', 'pools', 'security'] as const;
export const INSTALLER_STEP_KEYS = ['checkEquipment', 'changeFile', 'restartService', 'subArea', 'ipSegment'] as const;
export type StepKey = (typeof STEP_KEYS)[number] | (typeof INSTALLER_STEP_KEYS)[number];
export type WizardMode = 'create' | 'existing' | 'installer';
const MODES: readonly WizardMode[] = ['create', 'existing', 'installer'];

export interface WizardProgress {
  mode: WizardMode;
  /** The farm set up (created by the wizard in mode create, once the farm step is left). */
  agentKey: string | null;
  step: number;
  /** Installer variant: the sub-mining area chosen or created (id ≥ 1), whose IP segments the last step sets. */
  areaId?: number;
}

export const WIZARD_STORAGE_KEY = 'hf.newMining';

/** The farm-creation step exists only when a farm is being created. */
export function wizardSteps(mode: WizardMode): StepKey[] {
  if (mode === 'installer') return [...INSTALLER_STEP_KEYS];
  return STEP_KEYS.filter((k) => mode === 'create' || k !== 'farm');
}

/** Spec 3 §5 / spec 2 §2: a sub-mining area id must be at least 1. */
export function isAreaId(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1;
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
  return Math.max(0, Math.min(step, needsFarm));
}

export function parseProgress(raw: string | null): WizardProgress | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<WizardProgress>;
    if (!v.mode || !MODES.includes(v.mode)) return null;
    const agentKey = typeof v.agentKey === 'string' && v.agentKey ? v.agentKey : null;
    if (v.mode !== 'create' && !agentKey) return null;
    const p: WizardProgress = { mode: v.mode, agentKey, step: typeof v.step === 'number' ? v.step : 0 };
    if (v.mode === 'installer' && isAreaId(v.areaId)) p.areaId = v.areaId;
    return { ...p, step: reachableStep(p) };
  } catch {
    return null;
  }
}

export function serialiseProgress(p: WizardProgress): string {
  return JSON.stringify({ mode: p.mode, agentKey: p.agentKey, step: p.step, ...(p.areaId ? { areaId: p.areaId } : {}) });
}

/**
 * The progress the page starts from: the URL (?agentKey= sets up an existing farm, with &variant=installer the
 * installer steps) wins, then the saved one.
 */
export function initialProgress(query: { agentKey: string | null; step: string | null; variant?: string | null }, saved: WizardProgress | null): WizardProgress {
  if (query.agentKey) {
    const installer = query.variant === 'installer';
    const sameRun = saved && saved.agentKey === query.agentKey && (saved.mode === 'installer') === installer;
    if (sameRun) return { ...saved, step: query.step === null ? saved.step : clampStep(saved.mode, Number(query.step)) };
    const mode: WizardMode = installer ? 'installer' : 'existing';
    return { mode, agentKey: query.agentKey, step: query.step === null ? 0 : clampStep(mode, Number(query.step)) };
  }
  if (saved) return saved;
  return { mode: 'create', agentKey: null, step: 0 };
}
