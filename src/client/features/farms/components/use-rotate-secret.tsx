import { useCallback, useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useTranslation } from 'react-i18next';
import type { FarmSecret } from '@shared/schemas/farm';
import { useRotateFarmSecret } from '../api/farm-mutations';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { FarmSecretPanel } from './farm-secret-panel';

export interface RotateSecretFlow {
  /** Asks for confirmation, rotates, then shows the new secret once. */
  start: (agentKey: string) => void;
  pending: boolean;
  /** Render it once in the page: the dialog that shows the new secret. */
  dialog: ReactNode;
}

export function useRotateSecret(): RotateSecretFlow {
  const { t } = useTranslation('farms');
  const phone = usePhone();
  const { mutate: rotate, isPending } = useRotateFarmSecret();
  const [shown, setShown] = useState<FarmSecret | null>(null);

  const start = useCallback(
    (agentKey: string) =>
      modals.openConfirmModal({
        title: t('rotate.confirmTitle'),
        children: <Text size="sm">{t('rotate.confirmBody', { agentKey })}</Text>,
        labels: { confirm: t('rotate.confirm'), cancel: t('actions.cancel') },
        confirmProps: { color: 'red' },
        onConfirm: () =>
          rotate(agentKey, {
            onSuccess: (secret) => {
              notifySuccess(t('feedback.operationSuccess'));
              setShown(secret);
            },
            onError: (error) => notifyFailure(error, t('feedback.failed')),
          }),
      }),
    [t, rotate],
  );

  const dialog = (
    <Modal opened={shown !== null} onClose={() => setShown(null)} title={t('rotate.doneTitle')} size={720} fullScreen={phone} closeOnClickOutside={false}>
      {shown && (
        <Stack>
          <FarmSecretPanel agentKey={shown.agentKey} secret={shown.secret} />
          <Group justify="flex-end">
            <Button onClick={() => setShown(null)}>{t('secret.done')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );

  return { start, pending: isPending, dialog };
}
