import { Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CachedMiner } from '../lib/field-cache';

/** One miner in a list of the field home: a big tap target to its card. */
export function MinerRow({ miner, extra, testId }: { miner: CachedMiner; extra?: string; testId: string }) {
  const { t } = useTranslation('field');
  return (
    <UnstyledButton
      component={Link}
      to={`/field/miner/${encodeURIComponent(miner.id)}`}
      data-testid={testId}
      data-miner-id={miner.id}
      p="sm"
      style={{ display: 'block', borderBottom: '1px solid var(--mantine-color-default-border)', minHeight: 56 }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Badge size="sm" color={miner.online ? 'teal' : 'gray'} variant="dot">
              {miner.online ? t('card.online') : t('card.offline')}
            </Badge>
            <Text fw={600} size="md" style={{ overflowWrap: 'anywhere' }}>
              {miner.ip}
            </Text>
          </Group>
          <Text size="sm" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {miner.sn || '-'} · {miner.model || '-'}
            {extra ? ` · ${extra}` : ''}
          </Text>
        </Stack>
        <IconChevronRight size={20} style={{ flexShrink: 0 }} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}
