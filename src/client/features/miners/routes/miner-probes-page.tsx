/**
 * /miner/probes (spec 3 §2: rendered without the layout) — the farm's temperature probe wall for a control-room
 * screen or a phone: every online miner as a tile with its hottest chip reading, hottest first, coloured by band
 * (below 80, 80–85, 85–90, 90 °C and above), in °C, °F or K (spec 3 §9 units; the choice is remembered). Paged in
 * the database (the miner list sorted by highest chip temperature), refreshed every 60 s; a tile opens the
 * miner's detail. The hot badge counts the farm's miners at 85 °C and above (the list's tempChipFrom), on any page.
 * The decision that this is what the route shows is recorded in the README.
 */
import { useEffect, useState } from 'react';
import { ActionIcon, Badge, Box, Center, Group, Loader, Pagination, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import { useAgentKey } from '@client/lib/agent-key';
import { readStorage, writeStorage } from '@client/lib/safe-storage';
import { useMinerList } from '../api/miners-api';
import { HOT_FROM_C, ProbeTile, type TempUnit, tempBand, tempText } from '../components/probe-tile';
import { RetryAlert } from '../components/retry-alert';
import { NoFarmState } from '@client/components/no-farm-state';
import { usePhone } from '@client/lib/use-phone';

const PAGE_SIZE = 240;
const UNIT_KEY = 'hf.probeUnit';
const UNITS: readonly TempUnit[] = ['C', 'F', 'K'];

export function MinerProbesPage() {
  const { t } = useTranslation('miners');
  // A finger's target on a phone (the compact control is ~23 px tall).
  const phone = usePhone();
  const agentKey = useAgentKey();
  const [page, setPage] = useState(1);
  const [unit, setUnit] = useState<TempUnit>(() => {
    const v = readStorage('local', UNIT_KEY);
    return v === 'F' || v === 'K' ? v : 'C';
  });
  useEffect(() => writeStorage('local', UNIT_KEY, unit), [unit]);
  const list = useMinerList(agentKey, { filter: { status: 'online' }, page, pageSize: PAGE_SIZE, sort: 'tempChipMax', order: 'desc' });
  const rows = list.data?.list ?? [];
  const total = list.data?.total ?? 0;
  // The farm's hot miners, not the page's: its total (page 2 of a hot farm counted none; page 1 at most 240).
  const hotList = useMinerList(agentKey, { filter: { status: 'online', tempChipFrom: HOT_FROM_C }, page: 1, pageSize: 1, sort: 'tempChipMax', order: 'desc' });
  const hot = hotList.data?.total ?? rows.filter((m) => tempBand(m.tempChipMax) === 'critical' || tempBand(m.tempChipMax) === 'hot').length;

  let body;
  if (!agentKey) {
    body = <NoFarmState help={t('probes.noFarmHelp')} />;
  } else if (list.isPending) {
    body = (
      <Center mih={300} data-testid="probes-loading">
        <Loader />
      </Center>
    );
  } else if (list.isError && !list.data) {
    body = (
      <RetryAlert testId="probes-error" onRetry={() => list.refetch()}>
        {t('probes.failed')}
      </RetryAlert>
    );
  } else if (total === 0) {
    body = (
      <Center mih={300}>
        <Text c="dimmed" data-testid="probes-empty">
          {t('probes.empty')}
        </Text>
      </Center>
    );
  } else {
    body = (
      <>
        <SimpleGrid cols={{ base: 3, xs: 4, sm: 6, md: 8, lg: 12 }} spacing={6} verticalSpacing={6}>
          {rows.map((m) => (
            <ProbeTile key={m.ip} m={m} unit={unit} />
          ))}
        </SimpleGrid>
        {total > PAGE_SIZE && (
          <Group justify="center">
            <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} size={phone ? 'md' : 'sm'} />
          </Group>
        )}
      </>
    );
  }

  return (
    <Box p={{ base: 'xs', sm: 'md' }} mih="100vh" data-testid="miner-probes-page">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            {/* The page's only way back (no layout): a full-size target, not an 18 px arrow, for a thumb on a phone. */}
            <ActionIcon component={Link} to="/" variant="subtle" size="lg" aria-label={t('probes.back')} data-testid="probes-back">
              <IconArrowLeft size={20} />
            </ActionIcon>
            <Title order={3} size="h4">
              {t('probes.title')}
            </Title>
          </Group>
          <SegmentedControl size={phone ? 'md' : 'xs'} value={unit} onChange={(v) => setUnit(v as TempUnit)} data={UNITS.map((u) => ({ value: u, label: u === 'K' ? 'K' : `°${u}` }))} data-testid="probes-unit" />
        </Group>
        {list.data && (
          <Group gap="xs">
            <Badge variant="light">{t('probes.online', { count: total })}</Badge>
            {hot > 0 && (
              <Badge color="red" variant="light" data-testid="probes-hot">
                {t('probes.hot', { count: hot, threshold: tempText(HOT_FROM_C, unit) })}
              </Badge>
            )}
            <Text size="xs" c="dimmed">
              {t('probes.updated', { time: formatDate(new Date(list.dataUpdatedAt)) })} · {t('probes.showing', { from: formatNumber((page - 1) * PAGE_SIZE + 1), to: formatNumber(Math.min(page * PAGE_SIZE, total)) })}
            </Text>
          </Group>
        )}
        {body}
      </Stack>
    </Box>
  );
}
