/**
 * The miner detail's hashboards and pools: a table on wider screens, and on a phone one block per board or pool,
 * its figures in two columns and a pool's address on a line of its own. At 360 px the tables needed sideways
 * scrolling, their last columns (a pool's status, a board's state) were cut off and a pool's address broke every
 * few letters.
 */
import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatHashrate } from '@shared/format/hashrate';
import { formatNumber } from '@shared/format/number';
import type { MinerDetail } from '@shared/schemas/miner';
import { usePhone } from '@client/lib/use-phone';
import { liveFigure } from '../lib/format-miner';
import { DetailField } from './detail-field';
import { PoolStatusBadge } from './status-badges';

type Board = MinerDetail['snapshot']['boards'][number];
type Pool = MinerDetail['snapshot']['pools'][number];

/** Lowest – highest of a board's sensors ('-' without any, one figure when they agree). */
function range(values: readonly number[]): string {
  if (values.length === 0) return '-';
  const lo = formatNumber(Math.min(...values), 1);
  const hi = formatNumber(Math.max(...values), 1);
  return lo === hi ? lo : `${lo} – ${hi}`;
}

/** A board short of chips, and one failed (or with no chip answering). */
const health = (b: Board) => ({ short: b.chips < b.expectedChips, bad: b.failed || b.chips === 0 });

function BoardState({ board }: { board: Board }) {
  const { t } = useTranslation('miners');
  const { short, bad } = health(board);
  return (
    <Badge size="xs" variant="light" color={bad ? 'red' : short ? 'orange' : 'green'}>
      {bad ? t('boards.failed') : short ? t('boards.missingChips', { count: board.expectedChips - board.chips }) : t('boards.ok')}
    </Badge>
  );
}

export function BoardsView({ boards, online }: { boards: readonly Board[]; online: boolean }) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  const chips = (b: Board) => {
    const { short } = health(b);
    return { text: `${b.chips} / ${b.expectedChips}`, c: short ? 'red.7' : undefined, fw: short ? 600 : undefined };
  };
  const freq = (b: Board) => (b.freqMhz ? `${formatNumber(b.freqMhz)} ${t('units.mhz')}` : '-');
  if (phone) {
    return (
      <Stack gap="xs">
        {boards.map((b) => {
          const c = chips(b);
          return (
            <Paper key={b.index} withBorder radius="sm" p="xs" data-testid="miner-board-row">
              <Group justify="space-between" wrap="nowrap" mb={6}>
                <Text size="sm" fw={600}>
                  {t('boards.title', { index: b.index + 1 })}
                </Text>
                <BoardState board={b} />
              </Group>
              <SimpleGrid cols={2} spacing={6} verticalSpacing={6}>
                <DetailField label={t('boards.chips')}>
                  <Text span inherit c={c.c} fw={c.fw}>
                    {c.text}
                  </Text>
                </DetailField>
                <DetailField label={t('boards.rate')}>{liveFigure(online, formatHashrate(b.rateGhs))}</DetailField>
                <DetailField label={t('boards.tempChip')}>{range(b.tempChip)}</DetailField>
                <DetailField label={t('boards.tempPcb')}>{range(b.tempPcb)}</DetailField>
                <DetailField label={t('boards.tempPic')}>{range(b.tempPic)}</DetailField>
                <DetailField label={t('boards.freq')}>{freq(b)}</DetailField>
                <DetailField label={t('boards.hwErrors')}>{formatNumber(b.hwErrors)}</DetailField>
                {b.sn && (
                  <DetailField label={t('boards.sn')} wide>
                    {b.sn}
                  </DetailField>
                )}
              </SimpleGrid>
            </Paper>
          );
        })}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped withTableBorder fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('boards.index')}</Table.Th>
            <Table.Th>{t('boards.sn')}</Table.Th>
            <Table.Th ta="right">{t('boards.chips')}</Table.Th>
            <Table.Th ta="right">{t('boards.tempChip')}</Table.Th>
            <Table.Th ta="right">{t('boards.tempPcb')}</Table.Th>
            <Table.Th ta="right">{t('boards.tempPic')}</Table.Th>
            <Table.Th ta="right">{t('boards.rate')}</Table.Th>
            <Table.Th ta="right">{t('boards.hwErrors')}</Table.Th>
            <Table.Th ta="right">{t('boards.freq')}</Table.Th>
            <Table.Th>{t('boards.status')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {boards.map((b) => {
            const c = chips(b);
            return (
              <Table.Tr key={b.index} data-testid="miner-board-row">
                <Table.Td>{b.index + 1}</Table.Td>
                <Table.Td>{b.sn ?? '-'}</Table.Td>
                <Table.Td ta="right" c={c.c} fw={c.fw}>
                  {c.text}
                </Table.Td>
                <Table.Td ta="right">{range(b.tempChip)}</Table.Td>
                <Table.Td ta="right">{range(b.tempPcb)}</Table.Td>
                <Table.Td ta="right">{range(b.tempPic)}</Table.Td>
                <Table.Td ta="right">{liveFigure(online, formatHashrate(b.rateGhs))}</Table.Td>
                <Table.Td ta="right">{formatNumber(b.hwErrors)}</Table.Td>
                <Table.Td ta="right">{freq(b)}</Table.Td>
                <Table.Td>
                  <BoardState board={b} />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ActiveBadge() {
  const { t } = useTranslation('miners');
  return (
    <Badge size="xs" ml={4} variant="filled" miw="max-content" data-testid="miner-pool-active">
      {t('pools.active')}
    </Badge>
  );
}

export function PoolsView({ pools }: { pools: readonly Pool[] }) {
  const { t } = useTranslation('miners');
  const phone = usePhone();
  if (phone) {
    return (
      <Stack gap="xs">
        {pools.map((p, i) => (
          <Paper key={i} withBorder radius="sm" p="xs" data-testid="miner-pool-row">
            <Group justify="space-between" wrap="nowrap" mb={6}>
              <Group gap={0} wrap="nowrap">
                <Text size="sm" fw={600}>
                  {t('pools.title', { index: i + 1 })}
                </Text>
                {p.active && <ActiveBadge />}
              </Group>
              <PoolStatusBadge status={p.status} />
            </Group>
            <Stack gap={6}>
              <DetailField label={t('pools.url')}>{p.url || '-'}</DetailField>
              <DetailField label={t('pools.user')}>{p.user || '-'}</DetailField>
              <SimpleGrid cols={2} spacing={6}>
                <DetailField label={t('pools.accepted')}>{formatNumber(p.accepted)}</DetailField>
                <DetailField label={t('pools.rejected')}>{formatNumber(p.rejected)}</DetailField>
              </SimpleGrid>
            </Stack>
          </Paper>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table fz="sm" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            {/* Minimum widths: a narrow table scrolls rather than break an address every few letters. */}
            <Table.Th miw={200}>{t('pools.url')}</Table.Th>
            <Table.Th miw={110}>{t('pools.user')}</Table.Th>
            <Table.Th>{t('pools.status')}</Table.Th>
            <Table.Th ta="right">{t('pools.accepted')}</Table.Th>
            <Table.Th ta="right">{t('pools.rejected')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {pools.map((p, i) => (
            <Table.Tr key={i} data-testid="miner-pool-row">
              <Table.Td>
                {i + 1}
                {p.active && <ActiveBadge />}
              </Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{p.url || '-'}</Table.Td>
              {/* On one line: broken, "hfarm01.0x2|0" or "hosting-|a.0x5" read as other workers (the address gives way). */}
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{p.user || '-'}</Table.Td>
              <Table.Td>
                <PoolStatusBadge status={p.status} />
              </Table.Td>
              <Table.Td ta="right">{formatNumber(p.accepted)}</Table.Td>
              <Table.Td ta="right">{formatNumber(p.rejected)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
