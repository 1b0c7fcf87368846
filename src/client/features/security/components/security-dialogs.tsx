/**
 * The dialogs of /alarm/security: scan now (the whole farm or an IP range), reboot a range (confirmed, then its live
 * progress), mark processed (with a note), and one record's evidence (what the scan saw, line by line).
 */
import { useState } from 'react';
import { Alert, Badge, Button, Code, Drawer, Group, Modal, SegmentedControl, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import { formatNumber } from '@shared/format/number';
import { ipRangeSize } from '@shared/schemas/scan-ip';
import { SecurityRangeForm, type SecurityRecordRow } from '@shared/schemas/security';
import { BatchProgressView } from '@client/components/batch-progress-view';
import { FormActions } from '@client/components/form-actions';
import { ApiError } from '@client/lib/api-client';
import { fieldMessage, notifyFailure, notifySuccess } from '@client/lib/feedback';
import { zodValidate } from '@client/lib/form-errors';
import { usePhone } from '@client/lib/use-phone';
import { useProcessSecurity, useRebootRange, useSecurityTask, useStartSecurityScan } from '../api/security-api';
import { describeSecurity } from '../lib/describe';

// A type (not an interface) so it fits zodValidate's Record<string, unknown>.
type RangeValues = { ipBegin: string; ipEnd: string };

/** Begin and end address fields with the address count under them. */
function RangeFields({ form, testId }: { form: RangeForm; testId: string }) {
  const { t } = useTranslation(['security', 'errors']);
  const amount = ipRangeSize(form.values.ipBegin.trim(), form.values.ipEnd.trim());
  return (
    <>
      <TextInput
        label={t('security:range.begin')}
        placeholder="10.0.0.1"
        withAsterisk
        autoComplete="off"
        inputMode="decimal"
        spellCheck={false}
        data-autofocus
        {...form.getInputProps('ipBegin')}
        error={fieldMessage(t, form.errors.ipBegin)}
        data-testid={`${testId}-begin`}
      />
      <TextInput
        label={t('security:range.end')}
        placeholder="10.0.3.254"
        withAsterisk
        autoComplete="off"
        inputMode="decimal"
        spellCheck={false}
        {...form.getInputProps('ipEnd')}
        error={fieldMessage(t, form.errors.ipEnd)}
        data-testid={`${testId}-end`}
      />
      <Text size="sm" c="dimmed" aria-live="polite">
        {amount > 0 ? t('security:range.amount', { amount: formatNumber(amount) }) : t('security:range.hint')}
      </Text>
    </>
  );
}

type RangeForm = ReturnType<typeof useRangeForm>;

function useRangeForm() {
  const { t } = useTranslation(['security', 'errors']);
  return useForm<RangeValues>({ mode: 'controlled', initialValues: { ipBegin: '', ipEnd: '' }, validate: zodValidate(SecurityRangeForm, t) });
}

/** Form errors the server names by field go under their field; anything else is a notification. */
function onRangeError(form: RangeForm, fallback: string) {
  return (e: unknown) => {
    if (e instanceof ApiError && Object.keys(e.fields).length > 0) form.setErrors(e.fields);
    else notifyFailure(e, fallback);
  };
}

export function ScanDialog({ agentKey, onClose }: { agentKey: string; onClose: () => void }) {
  const { t } = useTranslation(['security', 'errors']);
  const phone = usePhone();
  const [scope, setScope] = useState<'farm' | 'range'>('farm');
  const form = useRangeForm();
  const start = useStartSecurityScan(agentKey);
  const run = (range: RangeValues | null) =>
    start.mutate(range ? { ipBegin: range.ipBegin.trim(), ipEnd: range.ipEnd.trim() } : {}, {
      onSuccess: (r) => {
        notifySuccess(t('security:scan.started', { count: r.targets, offline: r.skipped.offline, unsupported: r.skipped.unsupported }));
        onClose();
      },
      onError: onRangeError(form, t('security:failed')),
    });
  const submit = form.onSubmit((values) => run(values));
  return (
    <Modal opened onClose={onClose} title={t('security:scan.title')} fullScreen={phone} data-testid="security-scan-dialog">
      <form onSubmit={scope === 'range' ? submit : (e) => (e.preventDefault(), run(null))} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('security:scan.intro')}</Text>
          <SegmentedControl
            fullWidth
            value={scope}
            onChange={(v) => setScope(v as 'farm' | 'range')}
            data={[
              { value: 'farm', label: t('security:scan.wholeFarm') },
              { value: 'range', label: t('security:scan.range') },
            ]}
            data-testid="security-scan-scope"
          />
          {scope === 'range' && <RangeFields form={form} testId="security-scan" />}
          <FormActions cancel={t('security:cancel')} onCancel={onClose} submit={t('security:scan.start')} pending={start.isPending} submitTestId="security-scan-start" />
        </Stack>
      </form>
    </Modal>
  );
}

/** Reboot a range: the range, a confirmation, then the batch's live progress until the agent has done every miner. */
export function RebootDialog({ agentKey, onClose }: { agentKey: string; onClose: () => void }) {
  const { t } = useTranslation(['security', 'errors']);
  const phone = usePhone();
  const form = useRangeForm();
  const reboot = useRebootRange(agentKey);
  const [confirming, setConfirming] = useState<RangeValues | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  const task = useSecurityTask(agentKey, taskId);
  const submit = form.onSubmit((values) => setConfirming({ ipBegin: values.ipBegin.trim(), ipEnd: values.ipEnd.trim() }));
  const confirm = () =>
    confirming &&
    reboot.mutate(confirming, {
      onSuccess: (r) => setTaskId(r.taskId),
      onError: (e) => {
        setConfirming(null);
        onRangeError(form, t('security:failed'))(e);
      },
    });
  return (
    <Modal opened onClose={onClose} title={t('security:reboot.title')} fullScreen={phone} data-testid="security-reboot-dialog">
      {taskId ? (
        <Stack gap="sm">
          <BatchProgressView query={task} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-testid="security-reboot-close">
              {t('security:close')}
            </Button>
          </Group>
        </Stack>
      ) : confirming ? (
        <Stack gap="sm">
          <Alert color="orange" icon={<IconAlertTriangle size={18} />}>
            {t('security:reboot.confirm', { begin: confirming.ipBegin, end: confirming.ipEnd })}
          </Alert>
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setConfirming(null)} disabled={reboot.isPending}>
              {t('security:back')}
            </Button>
            <Button color="orange" onClick={confirm} loading={reboot.isPending} data-testid="security-reboot-confirm">
              {t('security:reboot.go')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Text size="sm">{t('security:reboot.intro')}</Text>
            <RangeFields form={form} testId="security-reboot" />
            <FormActions cancel={t('security:cancel')} onCancel={onClose} submit={t('security:reboot.next')} pending={false} submitTestId="security-reboot-next" />
          </Stack>
        </form>
      )}
    </Modal>
  );
}

export function ProcessDialog({ agentKey, ids, onClose, onDone }: { agentKey: string; ids: string[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('security');
  const phone = usePhone();
  const [note, setNote] = useState('');
  const process = useProcessSecurity(agentKey);
  const save = () =>
    process.mutate(
      { ids, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: (r) => {
          notifySuccess(t('process.done', { count: r.processed }));
          onDone();
        },
        onError: (e) => notifyFailure(e, t('failed')),
      },
    );
  return (
    <Modal opened onClose={onClose} title={t('process.title', { count: ids.length })} fullScreen={phone} data-testid="security-process-dialog">
      <Stack gap="sm">
        <Text size="sm">{t('process.intro')}</Text>
        <Textarea label={t('process.note')} value={note} onChange={(e) => setNote(e.currentTarget.value)} maxLength={500} autosize minRows={2} data-testid="security-process-note" />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button onClick={save} loading={process.isPending} data-testid="security-process-save">
            {t('process.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** One record: what the scan saw (the SSH banner, each source's log lines), when, and how it was dealt with. */
export function RecordDrawer({ row, onClose, onProcess }: { row: SecurityRecordRow; onClose: () => void; onProcess?: () => void }) {
  const { t } = useTranslation('security');
  const phone = usePhone();
  return (
    <Drawer opened onClose={onClose} position="right" size={phone ? '100%' : 'lg'} title={t('detail.title', { ip: row.ip })} data-testid="security-record">
      <Stack gap="sm">
        <Group gap="xs">
          <Badge color={row.status === 'suspicious' ? 'red' : 'green'} variant="light">
            {t(`status.${row.status}`)}
          </Badge>
          <Text size="sm" c="dimmed">
            {[row.sn, row.model].filter(Boolean).join(' · ')}
          </Text>
        </Group>
        <Stack gap={2}>
          {describeSecurity(t, row).map((line) => (
            <Text key={line} size="sm">
              {line}
            </Text>
          ))}
        </Stack>
        {row.report.events.length > 0 &&
          (phone ? (
            <Stack gap="xs" data-testid="security-events">
              {row.report.events.map((e) => (
                <Stack key={`${e.kind} ${e.source} ${e.user ?? ''}`} gap={2}>
                  <Text size="sm" fw={500}>
                    {t(`detail.event.${e.kind}`)} · {e.source}
                    {e.user ? ` (${e.user})` : ''} · ×{formatNumber(e.count)}
                  </Text>
                  <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                    {e.lastLine}
                  </Code>
                </Stack>
              ))}
            </Stack>
          ) : (
            <Table striped withTableBorder fz="xs" data-testid="security-events">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('detail.kind')}</Table.Th>
                  <Table.Th>{t('detail.source')}</Table.Th>
                  <Table.Th>{t('detail.count')}</Table.Th>
                  <Table.Th>{t('detail.lastLine')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {row.report.events.map((e) => (
                  <Table.Tr key={`${e.kind} ${e.source} ${e.user ?? ''}`}>
                    <Table.Td>{t(`detail.event.${e.kind}`)}</Table.Td>
                    <Table.Td>
                      {e.source}
                      {e.user ? ` (${e.user})` : ''}
                    </Table.Td>
                    <Table.Td>{formatNumber(e.count)}</Table.Td>
                    <Table.Td>
                      <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{e.lastLine}</Code>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ))}
        <Text size="sm">
          {t('detail.firstSeen')}: {formatDate(row.firstSeenAt)}
        </Text>
        <Text size="sm">
          {t('detail.scanTime')}: {formatDate(row.scanTime)}
        </Text>
        {row.processedAt && (
          <Text size="sm">
            {t('detail.processed', { at: formatDate(row.processedAt), by: row.processedBy ?? '-' })}
            {row.processNote ? ` · ${row.processNote}` : ''}
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {t('detail.advice')}
        </Text>
        {onProcess && row.status === 'suspicious' && (
          <Group justify="flex-end">
            <Button onClick={onProcess} data-testid="security-record-process">
              {t('process.action')}
            </Button>
          </Group>
        )}
      </Stack>
    </Drawer>
  );
}
