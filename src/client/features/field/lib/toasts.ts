/** Short messages at the bottom of the field app ("Saved — will sync when online"), without a UI library. */
import { type ReactNode, useSyncExternalStore } from 'react';

export type ToastTone = 'info' | 'success' | 'error' | 'warning';

export interface Toast {
  id: string;
  message: ReactNode;
  tone: ToastTone;
  title?: string;
  testId?: string;
}

let toasts: readonly Toast[] = [];
const listeners = new Set<() => void>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let seq = 0;
const MAX = 3;

function set(next: readonly Toast[]): void {
  toasts = next;
  for (const l of listeners) l();
}

export function hideToast(id: string): void {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
  if (toasts.some((t) => t.id === id)) set(toasts.filter((t) => t.id !== id));
}

/** Shows (or replaces, same id) a message; `autoClose` ms, or false to keep it until closed. */
export function showToast(input: Omit<Toast, 'id' | 'tone'> & { id?: string; tone?: ToastTone; autoClose?: number | false }): string {
  const id = input.id ?? `toast-${(seq += 1)}`;
  hideToast(id);
  const toast: Toast = { id, message: input.message, tone: input.tone ?? 'info', title: input.title, testId: input.testId };
  set([...toasts, toast].slice(-MAX));
  const autoClose = input.autoClose ?? 4000;
  if (autoClose !== false) timers.set(id, setTimeout(() => hideToast(id), autoClose));
  return id;
}

export function useToasts(): readonly Toast[] {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => toasts,
    () => toasts,
  );
}
