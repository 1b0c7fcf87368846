import { useState } from 'react';
import { Alert, Badge, Button, Card, Code, Group, Modal, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconKey, IconLock, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { setAgentKey, useAgentKey } from '@client/lib/agent-key';
import { usePermissions } from '@client/lib/session-api';
import { formatDate } from '@shared/format/date';
import { PERMISSION } from '@shared/menu-catalogue';
import { REGIONS, type Region } from '@shared/validation';
import { useDeleteFarm } from '../api/farm-mutations';
import { useFarmRegion, useUpdateFarmRegion } from '../api/farm-region';
import { useFarmInfo, useFarmStatus } from '../api/get-farm-info';
import { FarmForm } from '../components/farm-form';
import { FarmStatusCell } from '../components/farm-status-cell';
import { FarmPowerCard } from '../components/farm-power-card';
import { MinerLoginsCard } from '../components/miner-logins-card';
import { PageHeader } from '@client/components/page-header';
import { useRotateSecret } from '../components/use-rotate-secret';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { NoFarmState } from '@client/components/no-farm-state';
import { LoadErrorAlert } from '../components/load-error-alert';

function RegionCard({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('farms');
  const region = useFarmRegion(agentKey);
  const update = useUpdateFarmRegion(agentKey);
  const locked = region.data ? !region.data.canChange : false;
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb={4}>
        <Title order={5}>{t('settings.regionTitle')}</Title>
        {region.data?.read && (
          <Badge variant="light" color="gray" leftSection={<IconLock size={12} />}>
            {t('settings.regionReadOnly')}
          </Badge>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="sm">
        {t('settings.regionHelp')}
      </Text>
      {region.isPending ? (
        <Skeleton h={36} maw={280} />
      ) : region.isError ? (
        <Text size="sm" c="red">
          {region.error.message}
        </Text>
      ) : (
        <Stack gap={6}>
          <Select
            label={t('settings.regionLabel')}
            data={REGIONS.map((r) => ({ value: r, label: t(`regions.${r}`) }))}
            value={region.data.region}
            allowDeselect={false}
            disabled={locked || !canOperate || update.isPending}
            maw={280}
            data-testid="farm-region-select"
            onChange={(value) => {
              if (!value || value === region.data.region) return;
              update.mutate(value as Region, {
                onSuccess: () => notifySuccess(t('feedback.saveSuccess')),
                onError: (error) => notifyFailure(error, t('feedback.failed')),
              });
            }}
          />
          {locked && (
            <Text size="xs" c="dimmed">
              {t('settings.regionLocked')}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}

function DeleteFarmCard({ agentKey, name }: { agentKey: string; name: string }) {
  const { t } = useTranslation('farms');
  const phone = usePhone();
  const navigate = useNavigate();
  const remove = useDeleteFarm();
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const matches = typed.trim() === agentKey;
  const close = () => {
    setOpened(false);
    setTyped('');
  };
  return (
    <Card withBorder padding="md" style={{ borderColor: 'var(--mantine-color-red-4)' }}>
      <Title order={5} c="red" mb={4}>
        {t('settings.dangerTitle')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('settings.dangerHelp')}
      </Text>
      <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={() => setOpened(true)} w="fit-content">
        {t('settings.deleteButton')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('delete.confirmTitle')} fullScreen={phone} size={520}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!matches) return;
            // mutateAsync, not mutate callbacks: removing the deleted farm's queries can unmount this card before
            // per-call callbacks run (TanStack Query then skips them), and the page would stay on the deleted farm.
            remove.mutateAsync(agentKey).then(
              () => {
                notifySuccess(t('feedback.deleteSuccess'));
                close();
                setAgentKey(null);
                void navigate('/agents');
              },
              (error: unknown) => notifyFailure(error, t('feedback.failed')),
            );
          }}
        >
          <Stack>
            <Text size="sm">{t('delete.confirmBody', { name, agentKey })}</Text>
            <TextInput
              label={t('delete.typeLabel', { agentKey })}
              value={typed}
              onChange={(e) => setTyped(e.currentTarget.value)}
              autoComplete="off"
              data-autofocus
              error={typed !== '' && !matches ? t('delete.typeMismatch') : undefined}
              name="confirmAgentKey"
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('actions.cancel')}
              </Button>
              <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
                {t('delete.confirm')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Card>
  );
}

/** /setting/agent/agent: settings of the farm selected in the header. */
export function FarmSettingsPage() {
  const { t } = useTranslation('farms');
  const agentKey = useAgentKey();
  const { has } = usePermissions();
  // The server guards updatev2 / rotateSecret / deletev2 with the farm operation key.
  const canOperate = has(PERMISSION.farmOperations);
  const canChangeRegion = canOperate || has(PERMISSION.farmSettingsOperations);
  const info = useFarmInfo(agentKey);
  const status = useFarmStatus(agentKey);
  const rotation = useRotateSecret();

  const header = <PageHeader title={t('settings.title')} description={t('settings.description')} />;

  if (!agentKey) {
    return (
      <Stack gap="md">
        {header}
        <NoFarmState />
      </Stack>
    );
  }

  if (info.isPending) {
    return (
      <Stack gap="md">
        {header}
        <Skeleton h={320} />
        <Skeleton h={120} />
      </Stack>
    );
  }

  if (info.isError) {
    return (
      <Stack gap="md">
        {header}
        <LoadErrorAlert title={t('settings.loadError')} error={info.error} onRetry={() => info.refetch()} />
      </Stack>
    );
  }

  const farm = info.data;
  const nuc = status.data;

  return (
    <Stack gap="md" maw={860}>
      {header}
      <Card withBorder padding="md">
        <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
          <Group gap="xs">
            <Title order={5}>{t('settings.info')}</Title>
            <Code>{farm.agentKey}</Code>
          </Group>
          <Group gap="xs">
            <FarmStatusCell isOnline={nuc?.isOnline ?? false} netDelay={nuc?.netDelay ?? 0} lastOnlineAt={nuc?.lastOnlineAt ?? farm.lastOnlineAt} />
            {farm.version && (
              <Badge variant="outline" size="sm" tt="none">
                v{farm.version}
              </Badge>
            )}
          </Group>
        </Group>
        <Text size="xs" c="dimmed" mb="sm">
          {t('columns.lastOnline')}: {formatDate(nuc?.lastOnlineAt ?? farm.lastOnlineAt)}
        </Text>
        {!canOperate && (
          <Alert color="gray" mb="sm" icon={<IconLock size={16} />}>
            {t('settings.readOnlyHint')}
          </Alert>
        )}
        <FarmForm key={`${farm.agentKey}`} farm={farm} readOnly={!canOperate} onSaved={() => undefined} />
      </Card>
      {canOperate && (
        <Card withBorder padding="md">
          <Title order={5} mb={4}>
            {t('settings.secretTitle')}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            {t('settings.secretHelp')}
          </Text>
          <Button variant="light" leftSection={<IconKey size={16} />} onClick={() => rotation.start(farm.agentKey)} loading={rotation.pending} w="fit-content">
            {t('actions.rotate')}
          </Button>
        </Card>
      )}
      <MinerLoginsCard agentKey={farm.agentKey} canOperate={has(PERMISSION.farmSettingsOperations)} />
      <FarmPowerCard agentKey={farm.agentKey} canOperate={has(PERMISSION.minerOperations)} />
      <RegionCard agentKey={farm.agentKey} canOperate={canChangeRegion} />
      {canOperate && <DeleteFarmCard agentKey={farm.agentKey} name={farm.name} />}
      {rotation.dialog}
    </Stack>
  );
}
