import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
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

export interface DeletionCallbacks {
  onSuccess: () => void;
  onError: (error: unknown) => void;
}

/**
 * The console's delete confirmation: red confirm button, then "delete success" or the server's message.
 * `t` is the page's namespace, which holds delete.confirmTitle, delete.confirm, actions.cancel,
 * feedback.deleteSuccess and feedback.failed.
 */
export function confirmDeletion(
  t: TFunction,
  body: string,
  run: (callbacks: DeletionCallbacks) => void,
  opts: { title?: string; onDeleted?: () => void } = {},
): void {
  modals.openConfirmModal({
    title: opts.title ?? t('delete.confirmTitle'),
    children: <Text size="sm">{body}</Text>,
    labels: { confirm: t('delete.confirm'), cancel: t('actions.cancel') },
    confirmProps: { color: 'red' },
    onConfirm: () =>
      run({
        onSuccess: () => {
          opts.onDeleted?.();
          notifySuccess(t('feedback.deleteSuccess'));
        },
        onError: (error) => notifyFailure(error, t('feedback.failed')),
      }),
  });
}
