/** Figures of a batch's live progress (BatchProgress of /api/minerv2/batchProgress and /api/security/task). */
import type { BatchProgress } from '@shared/schemas/batch-operations';

/** 0–100 for the progress bar. */
export function progressPercent(p: Pick<BatchProgress, 'done' | 'total'>): number {
  if (p.total <= 0) return 100;
  return Math.min(100, Math.round((p.done * 100) / p.total));
}

/** Polling stops when the task is closed or every target has a result. */
export function progressFinished(p: Pick<BatchProgress, 'status' | 'done' | 'total'> | undefined): boolean {
  return p !== undefined && (p.status === 'done' || (p.total > 0 && p.done >= p.total));
}
