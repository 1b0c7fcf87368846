/**
 * Which forms hold unsaved input. The service-worker update (sw-update.ts) is held while any does, so a
 * new version never reloads the page under a technician's half-typed note.
 */
import { useEffect } from 'react';

const dirty = new Set<string>();

export function setFormDirty(id: string, isDirty: boolean): void {
  if (isDirty) dirty.add(id);
  else dirty.delete(id);
}

export function anyFormDirty(): boolean {
  return dirty.size > 0;
}

/** Marks the form `id` dirty while `isDirty` (and clears it on unmount). */
export function useDirtyForm(id: string, isDirty: boolean): void {
  useEffect(() => {
    setFormDirty(id, isDirty);
    return () => setFormDirty(id, false);
  }, [id, isDirty]);
}
