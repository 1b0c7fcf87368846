/**
 * "Pool config file" of the miner list's batch bar: download the current pools (of the selected miners, else the
 * whole farm) as .xlsx, upload the edited file, read the server's check (changes, unchanged, unknown miners, invalid
 * rows with their line and message), confirm with a verification code and apply — one set-pools batch per distinct
 * pool set, listed at the end (their progress is in the batch log).
 */
import { useState } from 'react';
import { Alert, Badge, Button, FileButton, Group, Modal, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { downloadBlob } from '@client/lib/download-blob';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { ERROR } from '@shared/errors';
import { formatNumber } from '@shared/format/number';
import type { PoolConfigApplyResult, PoolConfigUploadResult } from '@shared/schemas/pool-config-file';
import { applyPoolConfig, batchKeys, fetchPoolConfigFile, uploadPoolConfig } from '../api/batch-api';
import type { PoolConfigFileScope } from '../lib/batch-target';
import { VerificationCodeStep } from './verification-code-step';

const CODE_ERRORS = new Set<number | string>([ERROR.codeRequired.code, ERROR.codeWrong.code]);
/** Long labels wrap at 360 px instead of being cut. */
const WRAPPING_LABEL = { label: { whiteSpace: 'normal' as const, textAlign: 'left' as const } };

export interface PoolConfigFileDialogProps {
  agentKey: string;
  /** How many miners the file covers when a selection scopes it (0: the whole farm). */
  selectedCount: number;
  /** The selection's scope of the file (its addresses, or its filter less the unticked), asked when it is downloaded. */
  resolveScope: () => PoolConfigFileScope;
  onClose: () => void;
  onOpenLog: () => void;
}

export function PoolConfigFileDialog({ agentKey, selectedCount, resolveScope, onClose, onOpenLog }: PoolConfigFileDialogProps) {
  const { t, i18n } = useTranslation('miners');
  // A finger's target on a phone: the download button's label wraps (auto height), so it keeps a 36 px minimum.
  const phone = usePhone();
  const qc = useQueryClient();
  const [downloading, setDownloading] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [applying, setApplying] = useState(false);
  const [check, setCheck] = useState<(PoolConfigUploadResult & { fileName: string }) | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | undefined>();
  const [result, setResult] = useState<PoolConfigApplyResult | null>(null);
  const scoped = selectedCount > 0;

  const download = async () => {
    setDownloading(true);
    try {
      const f = await fetchPoolConfigFile(agentKey, scoped ? resolveScope() : {}, i18n.language);
      downloadBlob(f.blob, f.fileName);
    } catch (e) {
      notifyFailure(e, t('poolConfig.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };

  const onFile = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    setCheck(null);
    setCode('');
    setCodeError(undefined);
    try {
      const r = await uploadPoolConfig(agentKey, file);
      setCheck({ ...r, fileName: file.name });
    } catch (e) {
      notifyFailure(e, t('poolConfig.uploadFailed'));
    } finally {
      setUploading(false);
    }
  };

  const apply = async () => {
    if (!check) return;
    setApplying(true);
    setCodeError(undefined);
    try {
      const r = await applyPoolConfig(agentKey, check.fileId, code, crypto.randomUUID());
      setResult(r);
      notifySuccess(t('batch.dialog.started'));
      void qc.invalidateQueries({ queryKey: batchKeys.all });
    } catch (e) {
      if (e instanceof ApiError && CODE_ERRORS.has(e.code)) setCodeError(e.message);
      notifyFailure(e, t('batch.dialog.failed'));
    } finally {
      setApplying(false);
    }
  };

  const counts = check?.counts;
  return (
    <Modal opened onClose={onClose} title={t('poolConfig.title')} size="lg" data-testid="pool-config-dialog">
      {result ? (
        <Stack gap="sm">
          <Text size="sm">{t('poolConfig.queued', { count: result.batches.length })}</Text>
          <Stack gap={4} data-testid="pool-config-batches">
            {result.batches.map((b) => (
              <Group key={b.taskId} gap="xs" wrap="nowrap" data-testid="pool-config-batch">
                <Badge variant="light">{t('batch.ops.batchSetPool')}</Badge>
                <Text size="sm">{t('poolConfig.batchMiners', { count: b.ips })}</Text>
                <Text size="xs" c="dimmed" truncate style={{ minWidth: 0 }}>
                  {b.pool1Url}
                </Text>
              </Group>
            ))}
          </Stack>
          {result.refused.length > 0 && (
            <Text size="sm" c="orange.8" data-testid="pool-config-refused">
              {t('batch.progress.refused', { count: result.refused.length })}
            </Text>
          )}
          <Group justify="flex-end" wrap="wrap">
            <Button variant="default" onClick={onOpenLog} data-testid="pool-config-open-log">
              {t('batch.log')}
            </Button>
            <Button onClick={onClose} data-testid="pool-config-close">
              {t('batch.dialog.close')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('poolConfig.hint')}
          </Text>
          <Group gap="xs" wrap="wrap">
            <Button
              variant="light"
              leftSection={<IconDownload size={14} />}
              loading={downloading}
              onClick={() => void download()}
              h="auto"
              py={6}
              mih={phone ? 36 : undefined}
              styles={WRAPPING_LABEL}
              data-testid="pool-config-download"
            >
              {scoped ? t('poolConfig.downloadSelection', { count: selectedCount }) : t('poolConfig.downloadFarm')}
            </Button>
            <FileButton onChange={(f) => void onFile(f)} accept=".xlsx,.xls,.csv,.txt,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel">
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconUpload size={14} />} loading={uploading} data-testid="pool-config-upload">
                  {t('poolConfig.upload')}
                </Button>
              )}
            </FileButton>
          </Group>
          <Text size="xs" c="dimmed">
            {t('poolConfig.uploadHint')}
          </Text>
          {check && counts && (
            <Stack gap="xs" data-testid="pool-config-summary">
              <Text size="sm" fw={500}>
                {check.fileName}
              </Text>
              <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs">
                {(['change', 'same', 'unknown', 'invalid'] as const).map((k) => (
                  <Stack key={k} gap={0} data-testid={`pool-config-count-${k}`}>
                    <Text size="xs" c="dimmed">
                      {t(`poolConfig.counts.${k}`)}
                    </Text>
                    <Text size="lg" fw={600} c={k === 'invalid' && counts.invalid > 0 ? 'red' : undefined}>
                      {formatNumber(counts[k])}
                    </Text>
                  </Stack>
                ))}
              </SimpleGrid>
              {counts.change > 0 && <Text size="sm">{t('poolConfig.groups', { count: check.groups.length })}</Text>}
              {check.invalid.length > 0 && (
                <ScrollArea.Autosize mah={220} type="auto">
                  <Table fz="xs" striped data-testid="pool-config-invalid">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('poolConfig.line')}</Table.Th>
                        <Table.Th>IP</Table.Th>
                        <Table.Th>{t('poolConfig.problem')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {check.invalid.map((r) => (
                        <Table.Tr key={`${r.line}-${r.field}`}>
                          <Table.Td>{r.line}</Table.Td>
                          <Table.Td style={{ wordBreak: 'break-all' }}>{r.ip}</Table.Td>
                          <Table.Td>{`${t(`poolConfig.columns.${r.field}`)}: ${r.message}`}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea.Autosize>
              )}
              {counts.invalid > check.invalid.length && (
                <Text size="xs" c="dimmed">
                  {t('poolConfig.invalidMore', { count: counts.invalid - check.invalid.length })}
                </Text>
              )}
              {counts.change === 0 ? (
                <Alert color="gray" py={6} data-testid="pool-config-nothing">
                  {t('poolConfig.nothing')}
                </Alert>
              ) : (
                <>
                  <VerificationCodeStep code={code} onCode={setCode} error={codeError} />
                  <Group justify="flex-end" wrap="wrap">
                    <Button variant="default" onClick={onClose}>
                      {t('batch.dialog.cancel')}
                    </Button>
                    <Button onClick={() => void apply()} loading={applying} disabled={code === ''} data-testid="pool-config-apply">
                      {t('poolConfig.apply', { count: counts.change })}
                    </Button>
                  </Group>
                </>
              )}
            </Stack>
          )}
        </Stack>
      )}
    </Modal>
  );
}
