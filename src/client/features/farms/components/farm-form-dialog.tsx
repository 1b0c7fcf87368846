import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FarmInfo, FarmSecret } from '@shared/schemas/farm';
import { usePhone } from '@client/lib/use-phone';
import { FarmForm } from './farm-form';
import { FarmSecretPanel } from './farm-secret-panel';

export interface FarmFormDialogProps {
  opened: boolean;
  /** Called with `{ agentKey }` once a farm was created or saved; without a result when cancelled. */
  onClose: (result?: { agentKey: string }) => void;
  /** Edit mode when given: agentKey is locked. */
  farm?: FarmInfo;
}

/**
 * Create or edit a farm. After a creation the agent secret is shown once (copy button, warning, agent
 * command); closing that step reports the new farm's agentKey.
 */
export function FarmFormDialog({ opened, onClose, farm }: FarmFormDialogProps) {
  const { t } = useTranslation('farms');
  const phone = usePhone();
  const [created, setCreated] = useState<FarmSecret | null>(null);

  const close = (result?: { agentKey: string }) => {
    setCreated(null);
    onClose(result);
  };
  const dismiss = () => close(created ? { agentKey: created.agentKey } : undefined);

  const title = created ? t('secret.createdTitle') : farm ? t('form.editTitle') : t('form.createTitle');

  return (
    <Modal
      opened={opened}
      onClose={dismiss}
      title={title}
      size={720}
      fullScreen={phone}
      closeOnClickOutside={!created}
      data-testid="farm-form-dialog"
    >
      {created ? (
        <Stack>
          <FarmSecretPanel agentKey={created.agentKey} secret={created.secret} />
          <Group justify="flex-end">
            <Button onClick={dismiss}>{t('secret.done')}</Button>
          </Group>
        </Stack>
      ) : (
        opened && (
          <FarmForm
            key={farm?.agentKey ?? 'new'}
            farm={farm}
            onCancel={() => close()}
            onSaved={(saved) => {
              if (saved.mode === 'create') setCreated(saved.secret);
              else close({ agentKey: saved.info.agentKey });
            }}
          />
        )
      )}
    </Modal>
  );
}
