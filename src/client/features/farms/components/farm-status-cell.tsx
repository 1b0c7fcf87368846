import { Badge, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NUC_LEVEL_COLOR, nucLevel } from '@client/lib/nuc-status';
import { formatDate } from '@shared/format/date';

export interface FarmStatusCellProps {
  isOnline: boolean;
  netDelay: number;
  lastOnlineAt: string | null;
}

/** Online/offline badge plus the network delay coloured like the header's NUC indicator (spec 1 §2.2). */
export function FarmStatusCell({ isOnline, netDelay, lastOnlineAt }: FarmStatusCellProps) {
  const { t } = useTranslation('farms');
  const level = nucLevel({ isOnline, netDelay });
  const label = isOnline ? t('status.online') : lastOnlineAt ? t('status.offline') : t('status.never');
  return (
    <Group gap={6} wrap="nowrap">
      <Badge variant="light" color={isOnline ? 'green' : 'gray'} size="sm">
        {label}
      </Badge>
      {level !== 'hidden' && level !== 'dropped' && (
        <Tooltip label={`${t('columns.lastOnline')}: ${formatDate(lastOnlineAt)}`} withArrow>
          <Text size="xs" c={NUC_LEVEL_COLOR[level]} fw={600}>
            {t('status.delayMs', { delay: netDelay })}
          </Text>
        </Tooltip>
      )}
    </Group>
  );
}
