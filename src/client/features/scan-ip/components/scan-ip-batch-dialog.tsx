import { type FormEvent, useMemo, useState } from 'react';
import { Alert, Code, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { formatNumber } from '@shared/format/number';
import { SCAN_IP_LIMITS, parseScanIpList, type ScanIpRange } from '@shared/schemas/scan-ip';
import { useBatchSaveScanIp } from '../api/scan-ip';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { formatLineError, overlapsWithSaved } from '../lib/scan-ip-form';
import { usePhone } from '@client/lib/use-phone';
import { FormActions } from '@client/components/form-actions';

export interface ScanIpBatchDialogProps {
  opened: boolean;
  agentKey: string;
  /** The farm's ranges as listed: lines overlapping one are reported before sending. */
  saved: readonly ScanIpRange[];
  onClose: () => void;
}

const EXAMPLE = ['192.168.1.1-192.168.1.254-Row A', '192.168.2.1-192.168.2.100', '10.10.0.1-10.10.3.254-Hall 2 - containers'].join('\n');

function ScanIpBatchForm({ agentKey, saved, onClose }: Omit<ScanIpBatchDialogProps, 'opened'>) {
  const { t } = useTranslation(['scan-ip', 'errors']);
  const save = useBatchSaveScanIp();
  const [text, setText] = useState('');
  // Problems shown after a submit; re-checked while typing once shown.
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const parsed = useMemo(() => {
    const p = parseScanIpList(text);
    // Every problem of the text in line order: its own ones and overlaps with the ranges already saved.
    const errors = [...p.errors, ...overlapsWithSaved(p.ranges, saved)].sort((a, b) => a.line - b.line);
    return { ranges: p.ranges, errors };
  }, [text, saved]);
  const localErrors = checked ? parsed.errors.map((e) => formatLineError(t, e)) : [];
  const errors = localErrors.length > 0 ? localErrors : serverErrors;
  const total = parsed.ranges.reduce((sum, r) => sum + r.amount, 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    setServerErrors([]);
    if (parsed.errors.length > 0) return;
    save.mutate(
      { agentKey, scanIpList: text },
      {
        onSuccess: (created) => {
          notifySuccess(t('scan-ip:feedback.batchSuccess', { count: created.length }));
          onClose();
        },
        onError: (error) => {
          const fromServer = error instanceof ApiError ? error.fields.scanIpList : undefined;
          if (fromServer) setServerErrors(fromServer.split('\n'));
          else notifyFailure(error, t('scan-ip:feedback.failed'));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="scan-ip-batch-form">
      <Stack gap="sm">
        <Text size="sm">{t('scan-ip:batch.hint', { max: SCAN_IP_LIMITS.batchMaxLines })}</Text>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {EXAMPLE}
        </Code>
        <Textarea
          label={t('scan-ip:batch.label')}
          description={t('scan-ip:batch.description')}
          placeholder={t('scan-ip:batch.placeholder')}
          autosize
          minRows={6}
          maxRows={14}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          name="scanIpList"
          data-autofocus
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setServerErrors([]);
          }}
          error={errors.length > 0}
          aria-describedby={errors.length > 0 ? 'scan-ip-batch-errors' : undefined}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        />
        {errors.length > 0 ? (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('scan-ip:batch.errorsTitle')} id="scan-ip-batch-errors" data-testid="scan-ip-batch-errors" role="alert">
            <List size="sm" spacing={2}>
              {errors.map((message, index) => (
                <List.Item key={`${index}-${message}`} style={{ wordBreak: 'break-word' }}>
                  {message}
                </List.Item>
              ))}
            </List>
            <Text size="xs" mt={6}>
              {t('scan-ip:batch.nothingSaved')}
            </Text>
          </Alert>
        ) : (
          parsed.ranges.length > 0 && (
            <Text size="sm" c="dimmed" data-testid="scan-ip-batch-summary" aria-live="polite">
              {t('scan-ip:batch.summary', { count: parsed.ranges.length, amount: formatNumber(total) })}
            </Text>
          )
        )}
        <FormActions cancel={t('scan-ip:actions.cancel')} onCancel={onClose} submit={t('scan-ip:actions.import')} pending={save.isPending} />
      </Stack>
    </form>
  );
}

/** Batch add: one `begin-end-remark` per line; all lines are saved or none. */
export function ScanIpBatchDialog({ opened, agentKey, saved, onClose }: ScanIpBatchDialogProps) {
  const { t } = useTranslation('scan-ip');
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={t('batch.title')} size={640} fullScreen={phone} data-testid="scan-ip-batch-dialog">
      {opened && <ScanIpBatchForm agentKey={agentKey} saved={saved} onClose={onClose} />}
    </Modal>
  );
}
