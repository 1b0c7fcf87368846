import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';
import { translateError } from '@client/lib/form-errors';

/** Green toast for "save success", "delete success", "operation success". */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

/** Red toast with the server's `msg` (spec 1 §8: non-GET failures show the message). */
export function notifyFailure(error: unknown, fallback: string): void {
  const message = error instanceof Error && error.message ? error.message : fallback;
  notifications.show({ color: 'red', message });
}

/**
 * A field message is an `errors` key (client validation with the shared zod schemas) or an already
 * translated server message (ApiError.fields): translate the first, keep the second.
 */
export function fieldMessage(t: TFunction, message: unknown): string | undefined {
  if (typeof message !== 'string' || message === '') return undefined;
  return translateError(t, message);
}
