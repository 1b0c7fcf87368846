/** Step 1, agent install: what the farm's computer needs (spec 1 §9 sizing), how the agent runs, and (for an existing farm) the command. */
import { Alert, List, Stack, Text, ThemeIcon } from '@mantine/core';
import { formatNumber } from '@shared/format/number';
import { IconCpu, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Spec 1 §9 / spec 2 §9 farm sizing guidance. */
export const SIZING = { cores: 4, memoryGb: 16, diskGb: 100, bandwidthMbit: 20, perMiners: 10_000, maxMiners: 20_000, pingMinersMs: 100, pingServiceMs: 200, windowsVersion: '5.4.5' } as const;

export function InstallStep({ creating }: { creating: boolean }) {
  const { t } = useTranslation('farm-setup');
  return (
    <Stack gap="md" data-testid="step-install">
      <Text size="sm">{t('install.intro')}</Text>
      <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} title={t('install.sizingTitle')}>
        <List size="sm" spacing={2}>
          <List.Item>{t('install.sizingPer10k', SIZING)}</List.Item>
          <List.Item>{t('install.sizingLimit', { max: formatNumber(SIZING.maxMiners) })}</List.Item>
          <List.Item>{t('install.sizingPing', SIZING)}</List.Item>
          <List.Item>{t('install.sizingVersion', SIZING)}</List.Item>
        </List>
      </Alert>
      <List
        type="ordered"
        spacing="xs"
        size="sm"
        icon={
          <ThemeIcon size={20} radius="xl" variant="light">
            <IconCpu size={12} />
          </ThemeIcon>
        }
      >
        <List.Item>{t('install.guide1')}</List.Item>
        <List.Item>{t('install.guide2')}</List.Item>
        <List.Item>{t('install.guide3')}</List.Item>
        <List.Item>{creating ? t('install.guide4Create') : t('install.guide4Existing')}</List.Item>
      </List>
    </Stack>
  );
}
