import { notifications } from '@mantine/notifications';

/** Green toast for "save success", "delete success", "operation success". */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

/** Red toast with the server's `msg` (spec 1 §8: non-GET failures show the message). */
export function notifyFailure(error: unknown, fallback: string): void {
  const message = error instanceof Error && error.message ? error.message : fallback;
  notifications.show({ color: 'red', message });
}
