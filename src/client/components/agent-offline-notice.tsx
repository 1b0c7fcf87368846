import { Alert } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import { useNucStatus } from '@client/lib/farm-queries';

/**
 * Above a page of the farm's live figures (dashboard, miner list, hashrate overview) while its agent is not reporting
 * (no heartbeat within the online window): the figures are the last ones received and would otherwise read as live,
 * every miner still "online" through an outage of the farm's network or of the NUC. Not shown for a farm whose agent
 * never connected (the dashboard's connect card says what to do there).
 */
export function AgentOfflineNotice() {
  const { t } = useTranslation('common');
  const status = useNucStatus();
  const nuc = status.data;
  if (!nuc || nuc.isOnline || !nuc.lastOnlineAt) return null;
  return (
    <Alert color="orange" icon={<IconPlugConnectedX size={18} />} title={t('agentOffline.title')} data-testid="agent-offline-notice">
      {t('agentOffline.body', { time: formatDate(nuc.lastOnlineAt) })}
    </Alert>
  );
}
