/** A miner's operation log (spec 3 §3): batch operations that reached it and record changes, newest first, paged. */
import { useState } from 'react';
import { Alert, Badge, Button, Card, Center, Group, Loader, Pagination, Table, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useReasonLabel } from '@client/lib/batch-reasons';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import type { MinerLabelKind } from '@shared/miner-labels';
import type { MinerOpLogRow } from '@shared/schemas/miner-records';
import { useMinerOpLog } from '../api/miner-records-api';
import { useMinerLabels } from '../lib/use-miner-labels';

const PAGE_SIZE = 20;

function detailText(r: MinerOpLogRow, label: (kind: MinerLabelKind, value: string) => string, t: TFunction<'miners'>): string {
  const d = r.detail;
  if (r.action === 'securityRaised' && Array.isArray(d.kinds)) return d.kinds.map((k) => t(`opLog.securityKinds.${String(k)}`, { defaultValue: String(k) })).join(', ');
  if (r.action === 'updateSn' && typeof d.to === 'string') return `${typeof d.from === 'string' && d.from ? d.from : '-'} → ${d.to}`;
  if (r.action === 'repairStatus' && typeof d.status === 'string') return [label('repairStatus', d.status), typeof d.note === 'string' ? d.note : ''].filter(Boolean).join(' — ');
  if (r.action === 'securityProcessed') return typeof d.note === 'string' ? d.note : '';
  // A customer cleared is sent as none, which the server leaves out of the log's parameters.
  if (r.action === 'batchCustomer' && d.customer === undefined) return t('batch.fields.noCustomer');
  return Object.entries(d)
    .filter(([k, v]) => k !== 'id' && v !== null && v !== '')
    .map(([k, v]) => paramText(r.action, k, v, label, t))
    .join('; ');
}

/**
 * One parameter of a batch op (the ones the server shows, op-log.ts SAFE_PARAMS) in the reader's language: a user reads
 * "Work mode: Sleep", not "mode: sleep". `mode` and `percent` mean different things for different ops.
 */
function paramText(action: string, key: string, v: unknown, label: (kind: MinerLabelKind, value: string) => string, t: TFunction<'miners'>): string {
  const text = Array.isArray(v) ? v.map(String).filter(Boolean).join(', ') : String(v);
  const number = typeof v === 'number' ? formatNumber(v) : text;
  switch (key) {
    case 'mode':
      return action === 'batchSetFans'
        ? t('opLog.params.fanMode', { value: text === 'manual' ? t('batch.fields.fanManual') : t('batch.fields.fanAuto') })
        : t('opLog.params.workMode', { value: label('workMode', text) });
    case 'percent':
      if (action === 'batchSetFans') return t('opLog.params.fanPercent', { value: number });
      return t(action === 'batchChangePowerPercent' ? 'opLog.params.powerPercent' : 'opLog.params.hashratePercent', { value: number });
    case 'freqMhz':
      return t('opLog.params.freqMhz', { value: number });
    case 'customer':
      return t('opLog.params.customer', { value: text });
    case 'accident':
      return t('opLog.params.accident', { value: label('accident', text) });
    case 'note':
      return t('opLog.params.note', { value: text });
    case 'powerLimitKw':
      return t('opLog.params.powerLimitKw', { value: number });
    case 'fileName':
      return t('opLog.params.fileName', { value: text });
    case 'pools':
      return t('opLog.params.pools', { value: text || '-' });
    case 'light':
      return t(text === 'on' ? 'opLog.params.lightOn' : 'opLog.params.lightOff');
    default:
      return `${key}: ${text}`;
  }
}

export function OperationLogCard({ agentKey, ip }: { agentKey: string; ip: string }) {
  const { t } = useTranslation('miners');
  const [page, setPage] = useState(1);
  const log = useMinerOpLog(agentKey, ip, page);
  const data = log.data;
  const actionName = (a: string) => t(`opLog.actions.${a}`, { defaultValue: a });
  const { label } = useMinerLabels();
  const reasonLabel = useReasonLabel();

  let body;
  if (log.isPending) {
    body = (
      <Center mih={80}>
        <Loader size="sm" />
      </Center>
    );
  } else if (log.isError && !data) {
    body = (
      <Alert color="red" data-testid="miner-op-log-error">
        {t('opLog.failed')}
        <Button size="xs" variant="light" ml="sm" onClick={() => void log.refetch()}>
          {t('state.retry')}
        </Button>
      </Alert>
    );
  } else if (!data || data.total === 0) {
    body = (
      <Text size="sm" c="dimmed" data-testid="miner-op-log-empty">
        {t('opLog.empty')}
      </Text>
    );
  } else {
    body = (
      <>
        <Table.ScrollContainer minWidth={640}>
          <Table striped fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('opLog.at')}</Table.Th>
                <Table.Th>{t('opLog.action')}</Table.Th>
                <Table.Th>{t('opLog.user')}</Table.Th>
                <Table.Th>{t('opLog.result')}</Table.Th>
                <Table.Th>{t('opLog.detail')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.list.map((r, i) => (
                <Table.Tr key={`${r.at}-${r.action}-${i}`} data-testid="miner-op-log-row">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(r.at)}</Table.Td>
                  <Table.Td>{actionName(r.action)}</Table.Td>
                  <Table.Td>{r.user ?? '-'}</Table.Td>
                  <Table.Td>
                    {r.ok === null ? (
                      <Badge color="blue" variant="light">{t('opLog.queued')}</Badge>
                    ) : r.ok ? (
                      <Badge color="green" variant="light">{t('opLog.ok')}</Badge>
                    ) : (
                      <Badge color="red" variant="light" tt="none">
                        {t('opLog.failedResult')}
                        {r.reason ? `: ${reasonLabel(r.reason)}` : ''}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{detailText(r, label, t) || '-'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {data.total > PAGE_SIZE && (
          <Group justify="flex-end" mt="sm">
            <Pagination size="sm" total={Math.ceil(data.total / PAGE_SIZE)} value={page} onChange={setPage} data-testid="miner-op-log-pages" />
          </Group>
        )}
      </>
    );
  }

  return (
    <Card withBorder radius="md" padding="md" data-testid="miner-op-log">
      <Group justify="space-between" mb="sm">
        <Title order={5}>{t('opLog.title')}</Title>
        {data && data.total > 0 && (
          <Text size="sm" c="dimmed">
            {t('opLog.total', { count: data.total })}
          </Text>
        )}
      </Group>
      {body}
    </Card>
  );
}
