/** NUC connectivity indicator rule (spec 1 §2.2): colour by network delay; hidden at 0 when online. */
import type { NucStatus } from '@shared/schemas/farm';

export type NucLevel = 'hidden' | 'green' | 'yellow' | 'orange' | 'red' | 'dropped';

export const NUC_POLL_MS = 30_000;

export function nucLevel(status: Pick<NucStatus, 'isOnline' | 'netDelay'> | null | undefined): NucLevel {
  if (!status) return 'hidden';
  if (!status.isOnline) return 'dropped';
  const d = status.netDelay;
  if (!Number.isFinite(d) || d <= 0) return 'hidden';
  if (d <= 200) return 'green';
  if (d <= 500) return 'yellow';
  if (d <= 1000) return 'orange';
  return 'red';
}

/** Mantine colour of each visible level. */
export const NUC_LEVEL_COLOR: Record<Exclude<NucLevel, 'hidden'>, string> = {
  green: 'green',
  yellow: 'yellow',
  orange: 'orange',
  red: 'red',
  dropped: 'gray',
};
