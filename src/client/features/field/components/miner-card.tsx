/**
 * The miner card, readable at arm's length: big status and hashrate, temperatures, fans, faults, customer,
 * accident mark, shelf and seat, identity, and how old the reading is. Pure view of a cached row.
 */
import { Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import { autoHashrate } from '@shared/units';
import type { CachedMiner } from '../lib/field-cache';
import { relativeAge } from '../lib/relative-age';
import { useFieldLabels } from '../lib/use-field-miner-labels';

/** "182.35 TH/s" from GH/s, in the unit that reads best. */
export function hashrateText(ghs: number): string {
  const { value, unit } = autoHashrate(ghs);
  return `${formatNumber(value, 2)} ${unit}`;
}

const tempText = (v: number | null) => (v === null ? '-' : `${formatNumber(v, 0)} °C`);

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={600} data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

export function MinerCard({ miner }: { miner: CachedMiner }) {
  const { t, i18n } = useTranslation('field');
  const { label } = useFieldLabels();
  const percent = miner.rateIdeal > 0 ? Math.round((miner.gHS5s / miner.rateIdeal) * 1000) / 10 : null;
  const states = miner.statuses.filter((s) => s !== 'online' && s !== 'offline');
  const hot = (miner.tempChipMax ?? 0) >= 90;
  const location = miner.offShelf
    ? t('card.offShelf')
    : miner.shelf
      ? miner.seat
        ? t('card.shelfSeat', { shelf: miner.shelf, seat: miner.seat })
        : miner.shelf
      : t('card.notPlaced');
  return (
    <Stack gap="md" data-testid="field-card" data-miner-id={miner.id}>
      <Paper withBorder radius="md" p="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <Stack gap={4} style={{ minWidth: 0 }}>
            <Title order={2} style={{ fontSize: 30, overflowWrap: 'anywhere' }} data-testid="field-card-ip">
              {miner.ip}
            </Title>
            <Text size="lg" ff="monospace" data-testid="field-card-sn" style={{ overflowWrap: 'anywhere' }}>
              {miner.sn || '-'}
            </Text>
            <Text size="lg" data-testid="field-card-model">
              {[miner.make, miner.model].filter(Boolean).join(' ') || '-'}
            </Text>
          </Stack>
          <Badge size="xl" radius="sm" color={miner.online ? 'teal' : 'gray'} variant="filled" data-testid="field-card-status" style={{ fontSize: 18, height: 40 }}>
            {miner.online ? t('card.online') : t('card.offline')}
          </Badge>
        </Group>
        {states.length > 0 && (
          <Group gap={6} mt="sm" data-testid="field-card-states">
            {states.map((s) => (
              <Badge key={s} size="lg" variant="light" color={s === 'qualified' ? 'teal' : 'orange'}>
                {label('status', s)}
              </Badge>
            ))}
          </Group>
        )}
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Text size="sm" c="dimmed">
          {t('card.hashrate')}
        </Text>
        <Text fw={700} style={{ fontSize: 34, lineHeight: 1.15 }} data-testid="field-card-hashrate">
          {hashrateText(miner.gHS5s)}
        </Text>
        <Text size="lg" data-testid="field-card-ideal">
          {t('card.ideal', { value: hashrateText(miner.rateIdeal) })}
          {percent !== null && ` · ${t('card.ofIdeal', { percent: `${formatNumber(percent, 1)}%` })}`}
        </Text>
        <Text size="sm" c="dimmed">
          {t('card.average', { value: hashrateText(miner.gHSav) })}
        </Text>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
          <Fact label={t('card.chipTemp')} testId="field-card-chip-temp">
            <Text span inherit c={hot ? 'red' : undefined}>
              {tempText(miner.tempChipMax)}
            </Text>
          </Fact>
          <Fact label={t('card.pcbTemp')} testId="field-card-pcb-temp">
            {tempText(miner.tempPcbMax)}
          </Fact>
          <Fact label={t('card.fans')} testId="field-card-fans">
            {miner.fanMin === null || miner.fanMax === null ? '-' : t('card.fansValue', { min: formatNumber(miner.fanMin, 0), max: formatNumber(miner.fanMax, 0) })}
          </Fact>
          <Fact label={t('card.workMode')} testId="field-card-work-mode">
            {miner.workMode ? label('workMode', miner.workMode) : '-'}
          </Fact>
        </SimpleGrid>
      </Paper>

      <Paper withBorder radius="md" p="md">
        <Text size="sm" c="dimmed" mb={4}>
          {t('card.faults')}
        </Text>
        {miner.faultLabels.length === 0 ? (
          <Text size="lg" data-testid="field-card-faults">
            {t('card.noFaults')}
          </Text>
        ) : (
          <Group gap={6} data-testid="field-card-faults">
            {miner.faultLabels.map((f) => (
              <Badge key={f} size="xl" radius="sm" color="red" variant="light" style={{ textTransform: 'none' }}>
                {label('faultType', f)}
              </Badge>
            ))}
          </Group>
        )}
      </Paper>

      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
          <Fact label={t('card.location')} testId="field-card-location">
            {location}
          </Fact>
          <Fact label={t('card.customer')} testId="field-card-customer">
            {miner.customer ?? t('card.noCustomer')}
          </Fact>
          <Fact label={t('card.accident')} testId="field-card-accident">
            {miner.accident ? (miner.accidentNote ? `${miner.accident} — ${miner.accidentNote}` : miner.accident) : t('card.noAccident')}
          </Fact>
        </SimpleGrid>
      </Paper>

      <Text size="sm" c="dimmed" data-testid="field-card-as-of">
        {t('card.asOf', { time: formatDate(miner.takenAt), age: relativeAge(Date.parse(miner.takenAt), i18n.language) })}
      </Text>
    </Stack>
  );
}
