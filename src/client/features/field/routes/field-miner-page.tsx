/**
 * /field/miner/:minerId — one miner of the selected farm from this device's cache (offline too): the card,
 * the offline records (note, fault mark, customer) and a link to the full console's detail. Opening it puts
 * the miner on top of "recent miners". Switching farm leaves for the field home (the id belongs to a farm).
 */
import { Alert, Anchor, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconExternalLink } from '@tabler/icons-react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useAgentKey } from '@client/lib/agent-key';
import { FieldNoFarm } from '../components/field-no-farm';
import { MinerCard } from '../components/miner-card';
import { MinerOfflineActions } from '../components/miner-actions';
import { getCachedMiner, recordVisit } from '../lib/field-cache';

export function FieldMinerPage() {
  const agentKey = useAgentKey();
  const { minerId = '' } = useParams();
  const navigate = useNavigate();
  // Leave only on a real switch from one farm to another: on a fresh page load the farm may be settled a
  // moment after the first render (no farm → the stored farm), which is not a switch.
  const shownFarm = useRef<string | null>(null);
  useEffect(() => {
    if (!agentKey) return;
    if (shownFarm.current !== null && shownFarm.current !== agentKey) void navigate('/field', { replace: true });
    shownFarm.current = agentKey;
  }, [agentKey, navigate]);
  if (!minerId) return <Navigate to="/field" replace />;
  if (!agentKey) return <FieldNoFarm />;
  return <FieldMiner key={`${agentKey}:${minerId}`} agentKey={agentKey} minerId={minerId} />;
}

function FieldMiner({ agentKey, minerId }: { agentKey: string; minerId: string }) {
  const { t } = useTranslation('field');
  const found = useLiveQuery(async () => ({ miner: await getCachedMiner(agentKey, minerId) }), [agentKey, minerId]);
  const miner = found?.miner;
  const known = Boolean(miner);

  useEffect(() => {
    if (known) void recordVisit(agentKey, minerId);
  }, [agentKey, minerId, known]);

  const back = (
    <Button component={Link} to="/field" variant="default" size="md" leftSection={<IconArrowLeft size={18} />} data-testid="field-card-back">
      {t('card.back')}
    </Button>
  );

  if (found === undefined) {
    return (
      <Center mih={240} role="status">
        <Group gap="sm">
          <Loader size="sm" />
          <Text c="dimmed">{t('card.loading')}</Text>
        </Group>
      </Center>
    );
  }
  if (!miner) {
    return (
      <Stack gap="md" maw={720} mx="auto">
        {back}
        <Alert color="yellow" title={t('card.notFound')} data-testid="field-card-not-found">
          {t('card.notFoundHint')}
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="md" maw={720} mx="auto" data-testid="field-miner-page">
      <Group justify="space-between" wrap="wrap" gap="xs">
        {back}
        <Anchor component={Link} to={`/device/miner/detail?ip=${encodeURIComponent(miner.ip)}`} size="sm" data-testid="field-card-full-detail">
          <IconExternalLink size={14} style={{ verticalAlign: -2, marginRight: 4 }} aria-hidden />
          {t('card.fullDetail')}
        </Anchor>
      </Group>
      <MinerCard miner={miner} />
      <Stack gap="xs">
        <Title order={4}>{t('card.actions')}</Title>
        <MinerOfflineActions agentKey={agentKey} miner={miner} />
      </Stack>
    </Stack>
  );
}
