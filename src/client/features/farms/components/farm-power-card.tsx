/**
 * The farm's power limit (setAgentPower) next to what the farm draws now: the sum of the power its online miners on
 * shelf report, with how many of them report one. Over the limit the bar turns red and a notice says by how much;
 * from 90 % it turns orange. The limit is set here (0 = none) by users who may operate miners.
 */
import { useState } from 'react';
import { Alert, Button, Card, Group, NumberInput, Progress, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { ApiError } from '@client/lib/api-client';
import { formatNumber } from '@shared/format/number';
import type { FarmPower } from '@shared/schemas/farm';
import { useFarmPower, useSetFarmPowerLimit } from '../api/farm-power';
import { usePhone } from '@client/lib/use-phone';
import { LoadErrorAlert } from './load-error-alert';

/** Share of the limit drawn now (0–100+), or null without a limit or a figure. */
export function powerShare(p: FarmPower): number | null {
  return p.powerLimitKw !== null && p.powerNowKw !== null ? (p.powerNowKw * 100) / p.powerLimitKw : null;
}

export function powerColor(share: number | null): string {
  return share === null ? 'gray' : share > 100 ? 'red' : share >= 90 ? 'orange' : 'teal';
}

function LimitForm({ agentKey, current }: { agentKey: string; current: number | null }) {
  const { t } = useTranslation(['farms', 'errors']);
  const save = useSetFarmPowerLimit(agentKey);
  const phone = usePhone();
  const [value, setValue] = useState<number | string>(current ?? '');
  const [error, setError] = useState<string | undefined>();
  const submit = () => {
    const kw = value === '' ? 0 : Number(value);
    if (!Number.isFinite(kw) || kw < 0) {
      setError('validation.powerLimit');
      return;
    }
    setError(undefined);
    save.mutate(kw, {
      onSuccess: () => notifySuccess(t('farms:feedback.saveSuccess')),
      onError: (e) => {
        if (e instanceof ApiError && e.fields.powerLimitKw) setError(e.fields.powerLimitKw);
        else notifyFailure(e, t('farms:feedback.failed'));
      },
    });
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      noValidate
    >
      <Group align="flex-end" gap="xs" wrap="wrap">
        <NumberInput
          label={t('farms:power.limitLabel')}
          description={t('farms:power.limitHelp')}
          value={value}
          onChange={setValue}
          min={0}
          max={1_000_000}
          decimalScale={1}
          thousandSeparator=","
          suffix={` ${t('farms:power.unit')}`}
          w={220}
          // The steppers are 24 x 17 px, too small a tap on a phone, whose keyboard types the figure anyway.
          hideControls={phone}
          inputMode="decimal"
          error={fieldMessage(t, error)}
          data-testid="farm-power-limit"
        />
        <Button type="submit" loading={save.isPending} data-testid="farm-power-save">
          {t('farms:actions.save')}
        </Button>
      </Group>
    </form>
  );
}

export function FarmPowerCard({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation('farms');
  const power = useFarmPower(agentKey);
  return (
    <Card withBorder padding="md" data-testid="farm-power-card">
      <Title order={5} mb={4}>
        {t('power.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t('power.help')}
      </Text>
      {power.isPending ? (
        <Skeleton h={64} />
      ) : power.isError ? (
        <LoadErrorAlert title={t('power.loadError')} error={power.error} onRetry={() => power.refetch()} />
      ) : (
        <Stack gap="sm">
          <PowerNow p={power.data} />
          {canOperate && <LimitForm key={String(power.data.powerLimitKw)} agentKey={agentKey} current={power.data.powerLimitKw} />}
        </Stack>
      )}
    </Card>
  );
}

function PowerNow({ p }: { p: FarmPower }) {
  const { t } = useTranslation('farms');
  const share = powerShare(p);
  const kw = (v: number | null) => (v === null ? '-' : t('power.kw', { value: formatNumber(v, 1) }));
  return (
    <Stack gap={6} data-testid="farm-power-now">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">
          {p.powerNowKw === null ? t('power.noFigure') : t('power.now', { now: kw(p.powerNowKw) })}
        </Text>
        <Text size="sm" fw={500}>
          {p.powerLimitKw === null ? t('power.noLimit') : t('power.limit', { limit: kw(p.powerLimitKw) })}
        </Text>
      </Group>
      {share !== null && <Progress value={Math.min(100, share)} color={powerColor(share)} aria-label={t('power.share', { share: formatNumber(share, 0) })} />}
      <Text size="xs" c="dimmed">
        {t('power.reporting', { reporting: formatNumber(p.reportingMiners, 0), online: formatNumber(p.onlineMiners, 0) })}
      </Text>
      {share !== null && share > 100 && p.powerNowKw !== null && p.powerLimitKw !== null && (
        <Alert color="red" icon={<IconAlertTriangle size={16} />} data-testid="farm-power-over">
          {t('power.over', { over: kw(Math.round((p.powerNowKw - p.powerLimitKw) * 10) / 10) })}
        </Alert>
      )}
    </Stack>
  );
}
