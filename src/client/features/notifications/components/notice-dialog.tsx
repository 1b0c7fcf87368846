/** Notice dialog (spec 2 §2, §3): width 720; tables for the known notice types, generic view otherwise. */
import { Badge, Group, Modal, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import type { Notification } from '@shared/schemas/notification';
import { formatDate } from '@shared/format/date';
import { noticeView, type EnvReading, type NoticeSummary } from '../notice-content';

export const NOTICE_DIALOG_WIDTH = 720;
const COLUMN_WIDTH = 180;

export interface NoticeDialogProps {
  notice: Notification | null;
  onClose: () => void;
}

function SummaryLine({ summary }: { summary: NoticeSummary | null }) {
  const { t } = useTranslation('notifications');
  if (!summary) return null;
  return (
    <Group gap="lg" wrap="wrap">
      {summary.agentName && <Text size="sm">{t('dialog.farm')}: {summary.agentName}{summary.agentKey ? ` (${summary.agentKey})` : ''}</Text>}
      {summary.count !== null && <Text size="sm">{t('dialog.count')}: {summary.count}</Text>}
      {summary.publishTime && <Text size="sm" c="dimmed">{formatDate(summary.publishTime)}</Text>}
    </Group>
  );
}

function SimpleTable({ head, rows }: { head: string[]; rows: string[][] }) {
  const { t } = useTranslation('notifications');
  return (
    <ScrollArea.Autosize mah={420} type="auto">
      <Table striped withTableBorder withColumnBorders miw={head.length * COLUMN_WIDTH} layout="fixed" data-testid="notice-table">
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h} w={COLUMN_WIDTH}>
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={head.length}>
                <Text c="dimmed" ta="center" size="sm">
                  {t('dialog.empty')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            rows.map((r, i) => (
              <Table.Tr key={i}>
                {r.map((c, j) => (
                  <Table.Td key={j} style={{ wordBreak: 'break-all' }}>
                    {c}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

function readingRows(list: EnvReading[]): string[][] {
  return list.map((r) => [r.deviceName, r.value + (r.unit ? ` ${r.unit}` : ''), formatDate(r.time, undefined, { fallback: r.time || '-' })]);
}

export function NoticeBody({ notice }: { notice: Notification }) {
  const { t } = useTranslation('notifications');
  const view = noticeView(notice);
  if (view.kind === 'devices') {
    return (
      <Stack gap="sm">
        <Text size="sm">{t(`type.${view.type}.description`)}</Text>
        <SummaryLine summary={view.summary} />
        <SimpleTable
          head={[t('column.subId'), t('column.ip'), t('column.sn'), t('column.customer'), t('column.publishTime')]}
          rows={view.rows.map((r) => [r.subId, r.ip, r.sn, r.customer, formatDate(r.publishTime, undefined, { fallback: r.publishTime || '-' })])}
        />
      </Stack>
    );
  }
  if (view.kind === 'tempHumid') {
    return (
      <Stack gap="sm">
        <Text size="sm">{t('type.temp_humid_warning.description', { farm: view.agentName || view.agentKey })}</Text>
        <SummaryLine summary={view.summary} />
        <Title order={5}>{t('dialog.temperatures')}</Title>
        <SimpleTable head={[t('column.deviceName'), t('column.value'), t('column.time')]} rows={readingRows(view.temps)} />
        <Title order={5}>{t('dialog.humidities')}</Title>
        <SimpleTable head={[t('column.deviceName'), t('column.value'), t('column.time')]} rows={readingRows(view.humids)} />
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <Text style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="notice-content">
        {notice.content}
      </Text>
    </Stack>
  );
}

export function NoticeDialog({ notice, onClose }: NoticeDialogProps) {
  const { t } = useTranslation('notifications');
  const phone = useMediaQuery('(max-width: 48em)');
  const known = notice ? noticeView(notice).kind !== 'generic' : false;
  return (
    <Modal
      opened={notice !== null}
      onClose={onClose}
      size={NOTICE_DIALOG_WIDTH}
      fullScreen={phone}
      title={
        notice ? (
          <Group gap="xs" wrap="nowrap">
            <Text fw={600}>{notice.title || (known ? t(`type.${notice.type}.title`) : t('dialog.title'))}</Text>
          </Group>
        ) : null
      }
      data-testid="notice-dialog"
    >
      {notice && (
        <Stack gap="md">
          <Group gap="xs">
            {known && <Badge variant="light">{t(`type.${notice.type}.title`)}</Badge>}
            <Text size="sm" c="dimmed">
              {t('dialog.publishTime')}: {formatDate(notice.publishTime)}
            </Text>
          </Group>
          <NoticeBody notice={notice} />
        </Stack>
      )}
    </Modal>
  );
}
