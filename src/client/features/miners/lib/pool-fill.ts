/**
 * Filling the batch set-pool form from what the farm keeps (spec 3 §7 "pool data"): a pool group's pools into
 * pool 1–3, a sub-account's name into one pool's worker. Pure, so the dialog and its tests share the rules.
 */
import type { PoolGroupChoice } from '@shared/schemas/pool';
import type { PoolForm } from './batch-target';

export const POOL_SLOTS = [1, 2, 3] as const;
export type PoolSlot = (typeof POOL_SLOTS)[number];

/**
 * The form with the group's pools in pool 1, 2, 3 (URL and worker, in the group's order); the slots the group lacks
 * are cleared (URL, worker and password) so that no pool of an earlier choice stays behind. The passwords of the
 * filled pools and the worker suffix are kept: the group has no passwords, and the suffix is the operator's choice.
 */
export function fillFromGroup(form: PoolForm, group: Pick<PoolGroupChoice, 'pools'>): PoolForm {
  const next: PoolForm = { ...form };
  for (const n of POOL_SLOTS) {
    const pool = group.pools[n - 1];
    next[`pool${n}Url`] = pool?.url ?? '';
    next[`pool${n}User`] = pool?.user ?? '';
    if (!pool) next[`pool${n}Password`] = '';
  }
  return next;
}

/** The form with `accountName` as pool n's worker (the suffix, if any, is added per miner when sent). */
export function withSubAccount(form: PoolForm, n: PoolSlot, accountName: string): PoolForm {
  const next: PoolForm = { ...form };
  next[`pool${n}User`] = accountName;
  return next;
}

/** The form still holds the group's pools as filled (trimmed): false once the operator changed one of them. */
export function matchesGroup(form: PoolForm, group: Pick<PoolGroupChoice, 'pools'>): boolean {
  return POOL_SLOTS.every((n) => {
    const pool = group.pools[n - 1];
    return form[`pool${n}Url`].trim() === (pool?.url ?? '') && form[`pool${n}User`].trim() === (pool?.user ?? '');
  });
}

/** The fields that differ between two forms, as the dialog's onChange(key, value) reports them. */
export function changedFields(before: PoolForm, after: PoolForm): [keyof PoolForm, string][] {
  return (Object.keys(after) as (keyof PoolForm)[]).filter((k) => before[k] !== after[k]).map((k) => [k, after[k]]);
}
