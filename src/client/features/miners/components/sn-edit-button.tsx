/** Edits our record of a miner's SN (POST /api/miner/updateSn): exactly 17 characters, "SN must be 17". */
import { useState } from 'react';
import { ActionIcon, Button, Group, Popover, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SN_LENGTH, checkSn } from '@shared/sn';
import { notifySuccess } from '@client/lib/feedback';
import { useUpdateSn } from '../api/miner-records-api';
import { usePhone } from '@client/lib/use-phone';

export function SnEditButton({ agentKey, ip, sn, reportedSn }: { agentKey: string; ip: string; sn: string; reportedSn: string }) {
  const { t } = useTranslation(['miners', 'errors']);
  // A finger's target on a phone (the compact icon is 22 px).
  const phone = usePhone();
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState(sn);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateSn(agentKey, ip);

  const submit = () => {
    const c = checkSn(value);
    if (!c.ok) {
      setError(t('errors:validation.snLength'));
      return;
    }
    update.mutate(c.sn, {
      onSuccess: (r) => {
        setOpened(false);
        notifySuccess(r.changed ? t('miners:sn.saved') : t('miners:sn.unchanged'));
      },
      onError: (e) => setError(e instanceof Error ? e.message : t('miners:sn.failed')),
    });
  };

  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      width={300}
      position="bottom-start"
      withinPortal
      trapFocus
      onOpen={() => {
        setValue(sn);
        setError(null);
      }}
    >
      <Popover.Target>
        <Tooltip label={t('miners:sn.edit')}>
          <ActionIcon size={phone ? 'lg' : 'sm'} variant="subtle" aria-label={t('miners:sn.edit')} onClick={() => setOpened((o) => !o)} data-testid="miner-sn-edit">
            <IconPencil size={14} />
          </ActionIcon>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <Stack gap="xs">
            <TextInput
              label={t('miners:sn.label')}
              description={t('miners:sn.hint', { length: SN_LENGTH })}
              value={value}
              onChange={(e) => {
                setValue(e.currentTarget.value);
                setError(null);
              }}
              error={error}
              maxLength={40}
              autoComplete="off"
              data-testid="miner-sn-input"
            />
            {reportedSn && reportedSn !== sn && (
              <Text size="xs" c="dimmed">
                {t('miners:sn.reported', { sn: reportedSn })}
              </Text>
            )}
            <Group justify="flex-end" gap="xs">
              <Button size={phone ? 'sm' : 'xs'} variant="default" onClick={() => setOpened(false)}>
                {t('miners:sn.cancel')}
              </Button>
              <Button size={phone ? 'sm' : 'xs'} type="submit" loading={update.isPending} data-testid="miner-sn-save">
                {t('miners:sn.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Popover.Dropdown>
    </Popover>
  );
}
