/**
 * /setting/agent/online — batch on/off shelf from a file (spec 3 §2): choose take off shelf or put back on shelf,
 * upload a .txt (one IP per line) or Excel list (column 1 IP, 2 SN, 3 customer; a template can be downloaded), see
 * every row checked against the farm's miners (will change, already, SN differs, unknown IP; lines that are not an
 * IP listed apart), filter by outcome, and apply to the rows that will change — rows whose SN differs from the
 * miner's only when ticked, since the IP may belong to another miner by now. Taking off shelf is the batch "off
 * shelf" (batch log, off-shelf records); putting back is the off-shelf records' "back on shelf".
 */
import { useMemo, useState } from 'react';
import { Alert, Anchor, Badge, Button, Checkbox, CloseButton, FileButton, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconDownload, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { findMenuByKey } from '@shared/menu-catalogue';
import type { IpListUploadResult } from '@shared/schemas/batch-operations';
import { SHELF_OUTCOMES, type ShelfAction, type ShelfImportApplyResult, type ShelfImportRow, type ShelfOutcome } from '@shared/schemas/shelf-import';
import { CountFilter } from '@client/components/count-filter';
import { DataTable } from '@client/components/data-table/data-table';
import type { Column } from '@client/components/data-table/data-table-types';
import { queryTableState } from '@client/components/data-table/query-state';
import { NoFarmState } from '@client/components/no-farm-state';
import { PageHeader } from '@client/components/page-header';
import { useAgentKey } from '@client/lib/agent-key';
import { downloadBlob } from '@client/lib/download-blob';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePermissions } from '@client/lib/session-api';
import { uploadShelfList, useApplyShelfImport, useShelfImportRows } from '../api/shelf-import-api';
import { toXlsx } from '../lib/export-miners';

const OPERATE = findMenuByKey('batchOnline')?.operation ?? -1;
const ACCEPT = '.txt,.xlsx,.xls,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel';
const OUTCOME_COLOR: Record<ShelfOutcome, string> = { change: 'blue', already: 'gray', snMismatch: 'orange', unknown: 'red' };

interface Uploaded extends IpListUploadResult {
  fileName: string;
}

export function ShelfImportPage() {
  const { t } = useTranslation('miners');
  const agentKey = useAgentKey();
  const perms = usePermissions();
  const [action, setAction] = useState<ShelfAction>('off');
  const [uploaded, setUploaded] = useState<Uploaded | null>(null);
  const [uploading, setUploading] = useState(false);
  const [outcome, setOutcome] = useState<ShelfOutcome | null>(null);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const [includeMismatch, setIncludeMismatch] = useState(false);
  const [result, setResult] = useState<ShelfImportApplyResult | null>(null);
  const rows = useShelfImportRows(agentKey ?? '', uploaded?.fileId ?? null, action, outcome, page, pageSize);
  const applying = useApplyShelfImport(agentKey ?? '');
  const summary = rows.data?.summary;

  const columns = useMemo<Column<ShelfImportRow>[]>(
    () => [
      { key: 'n', title: t('shelfImport.col.n'), width: 70, align: 'right' },
      {
        key: 'ip',
        title: t('shelfImport.col.ip'),
        width: 140,
        render: (r) =>
          r.outcome === 'unknown' ? (
            r.ip
          ) : (
            <Link to={`/device/miner/detail?ip=${encodeURIComponent(r.ip)}`} onClick={(e) => e.stopPropagation()}>
              {r.ip}
            </Link>
          ),
      },
      { key: 'fileSn', title: t('shelfImport.col.fileSn'), width: 190, render: (r) => r.fileSn || '-' },
      {
        key: 'sn',
        title: t('shelfImport.col.sn'),
        width: 190,
        render: (r) => (r.outcome === 'snMismatch' ? <Text span c="orange.8" fw={600} size="sm">{r.sn || t('shelfImport.noSn')}</Text> : r.sn || '-'),
      },
      { key: 'model', title: t('shelfImport.col.model'), width: 140, render: (r) => r.model || '-' },
      { key: 'fileCustomer', title: t('shelfImport.col.customer'), width: 130, render: (r) => r.fileCustomer || '-' },
      {
        key: 'offShelf',
        title: t('shelfImport.col.shelf'),
        width: 130,
        render: (r) => (r.offShelf === null ? '-' : <Badge variant="light" color={r.offShelf ? 'gray' : 'green'}>{r.offShelf ? t('shelfImport.offShelf') : t('shelfImport.onShelf')}</Badge>),
      },
      {
        key: 'online',
        title: t('shelfImport.col.network'),
        width: 100,
        render: (r) => (r.online === null ? '-' : <Badge variant="light" color={r.online ? 'green' : 'red'}>{r.online ? t('shelfImport.online') : t('shelfImport.offline')}</Badge>),
      },
      {
        key: 'outcome',
        title: t('shelfImport.col.outcome'),
        width: 240,
        render: (r) => (
          <Badge variant="light" color={OUTCOME_COLOR[r.outcome]} data-testid={`shelf-outcome-${r.outcome}`}>
            {t(`shelfImport.outcome.${r.outcome}.${action}`)}
          </Badge>
        ),
      },
    ],
    [t, action],
  );

  if (!agentKey) {
    return (
      <Stack gap="md">
        <PageHeader title={t('shelfImport.title')} />
        <NoFarmState />
      </Stack>
    );
  }

  const canOperate = perms.has(OPERATE);
  const reset = () => {
    setUploaded(null);
    setOutcome(null);
    setPage(1);
    setIncludeMismatch(false);
    setResult(null);
  };

  const onFile = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      const r = await uploadShelfList(agentKey, file);
      reset();
      setUploaded({ ...r, fileName: file.name });
    } catch (e) {
      notifyFailure(e, t('shelfImport.uploadFailed'));
    } finally {
      setUploading(false);
    }
  };

  const downloadTemplate = async () => {
    try {
      const headers = [t('shelfImport.col.ip'), t('shelfImport.col.fileSn'), t('shelfImport.col.customer')];
      downloadBlob(await toXlsx({ headers, rows: [] }, t('shelfImport.sheet')), 'shelf-list-template.xlsx');
    } catch (e) {
      notifyFailure(e, t('export.failed'));
    }
  };

  const toApply = (summary?.change ?? 0) + (includeMismatch ? (summary?.snMismatch ?? 0) : 0);
  const apply = () => {
    if (!uploaded) return;
    const fileId = uploaded.fileId;
    // One key per confirmed apply: a retry of the same request (lost answer) is answered once.
    const idempotencyKey = crypto.randomUUID();
    modals.openConfirmModal({
      title: t(`shelfImport.apply.${action}`, { count: toApply }),
      children: <Text size="sm">{t(`shelfImport.confirm.${action}`, { count: toApply })}</Text>,
      labels: { confirm: t(`shelfImport.apply.${action}`, { count: toApply }), cancel: t('shelfImport.cancel') },
      onConfirm: () =>
        applying.mutate(
          { fileId, action, includeSnMismatch: includeMismatch, idempotencyKey },
          {
            onSuccess: (r) => {
              setResult(r);
              setPage(1);
              notifySuccess(t(`shelfImport.done.${r.action}`, { count: r.changed }));
            },
            onError: (e) => notifyFailure(e, t('shelfImport.applyFailed')),
          },
        ),
    });
  };

  const stepOne = (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Group gap="sm" wrap="wrap" align="center">
          <Text size="sm" fw={600}>
            {t('shelfImport.action')}
          </Text>
          <SegmentedControl
            size="xs"
            value={action}
            onChange={(v) => {
              setAction(v as ShelfAction);
              setOutcome(null);
              setPage(1);
              setIncludeMismatch(false);
              setResult(null);
            }}
            data={[
              { value: 'off', label: t('shelfImport.actions.off') },
              { value: 'on', label: t('shelfImport.actions.on') },
            ]}
            data-testid="shelf-action"
          />
        </Group>
        <Text size="sm" c="dimmed">
          {t('shelfImport.formatHint')}
        </Text>
        {canOperate ? (
          <Group gap="xs" wrap="wrap">
            <FileButton onChange={(f) => void onFile(f)} accept={ACCEPT}>
              {(props) => (
                <Button {...props} size="xs" leftSection={<IconUpload size={14} />} loading={uploading} data-testid="shelf-upload">
                  {uploaded ? t('shelfImport.uploadAnother') : t('shelfImport.upload')}
                </Button>
              )}
            </FileButton>
            <Button size="xs" variant="subtle" leftSection={<IconDownload size={14} />} onClick={() => void downloadTemplate()} data-testid="shelf-template">
              {t('shelfImport.template')}
            </Button>
          </Group>
        ) : (
          <Alert color="gray" variant="light" data-testid="shelf-no-permission">
            {t('shelfImport.noPermission')}
          </Alert>
        )}
      </Stack>
    </Paper>
  );

  if (!uploaded) {
    return (
      <Stack gap="md" data-testid="shelf-import-page">
        <PageHeader title={t('shelfImport.title')} description={t('shelfImport.description')} />
        {stepOne}
        <Paper withBorder p="xl" radius="md">
          <Stack align="center" gap="xs">
            <IconFileSpreadsheet size={32} stroke={1.5} />
            <Text size="sm" c="dimmed" ta="center" data-testid="shelf-empty">
              {t('shelfImport.empty')}
            </Text>
          </Stack>
        </Paper>
      </Stack>
    );
  }

  const all = summary ? SHELF_OUTCOMES.reduce((a, o) => a + summary[o], 0) : uploaded.count;
  const filters = (
    <CountFilter<ShelfOutcome>
      testId="shelf-filter"
      value={outcome}
      onChange={(v) => {
        setOutcome(v);
        setPage(1);
      }}
      options={[
        { value: null, label: t('shelfImport.all'), count: summary ? all : undefined },
        ...SHELF_OUTCOMES.map((o) => ({ value: o, label: t(`shelfImport.filter.${o}`), count: summary?.[o], color: OUTCOME_COLOR[o] })),
      ]}
    />
  );

  return (
    <Stack gap="md" data-testid="shelf-import-page">
      <PageHeader title={t('shelfImport.title')} description={t('shelfImport.description')} />
      {stepOne}
      <Group gap="xs" wrap="wrap" data-testid="shelf-file">
        <Badge variant="light" size="lg" tt="none" rightSection={<CloseButton size="xs" aria-label={t('shelfImport.clear')} onClick={reset} />} style={{ maxWidth: '100%' }}>
          {t('shelfImport.file', { name: uploaded.fileName, count: uploaded.count })}
        </Badge>
        {uploaded.invalid.length > 0 && (
          <Text size="xs" c="orange.8" data-testid="shelf-invalid">
            {t('shelfImport.invalid', { count: uploaded.invalid.length, lines: uploaded.invalid.slice(0, 10).map((l) => l.line).join(', ') })}
          </Text>
        )}
      </Group>
      {result && (
        <Alert color={result.changed > 0 ? 'green' : 'gray'} variant="light" withCloseButton onClose={() => setResult(null)} data-testid="shelf-result">
          <Stack gap={4}>
            <Text size="sm">{t(`shelfImport.done.${result.action}`, { count: result.changed })}</Text>
            {result.skipped > 0 && <Text size="sm">{t('shelfImport.skipped', { count: result.skipped })}</Text>}
            <Anchor component={Link} to={result.action === 'off' ? '/device/miners' : '/device/miner'} size="sm">
              {result.action === 'off' ? t('shelfImport.openOffShelf') : t('shelfImport.openMiners')}
            </Anchor>
          </Stack>
        </Alert>
      )}
      {summary && summary.snMismatch > 0 && (
        <Alert color="orange" variant="light" icon={<IconAlertTriangle size={16} />} data-testid="shelf-mismatch">
          <Stack gap={6}>
            <Text size="sm">{t('shelfImport.mismatchHint', { count: summary.snMismatch })}</Text>
            <Checkbox
              size="xs"
              checked={includeMismatch}
              onChange={(e) => setIncludeMismatch(e.currentTarget.checked)}
              label={t('shelfImport.includeMismatch', { count: summary.snMismatch })}
              data-testid="shelf-include-mismatch"
            />
          </Stack>
        </Alert>
      )}
      <DataTable<ShelfImportRow>
        columns={columns}
        rows={rows.data?.list ?? []}
        rowKey="ip"
        prefKey="/setting/agent/online"
        {...queryTableState(rows)}
        emptyText={outcome ? t('shelfImport.noneOfOutcome') : t('shelfImport.noRows')}
        pagination={{
          total: rows.data?.total ?? 0,
          page,
          pageSize,
          onChange: (p, s) => {
            setPage(p);
            setPageSize(s);
          },
        }}
        toolbar={
          <Group gap="xs" wrap="wrap" style={{ flex: 1 }} justify="space-between">
            {filters}
            {canOperate && (
              <Button size="xs" disabled={toApply === 0 || !summary} loading={applying.isPending} onClick={apply} data-testid="shelf-apply">
                {toApply === 0 && summary ? t('shelfImport.nothing') : t(`shelfImport.apply.${action}`, { count: toApply })}
              </Button>
            )}
          </Group>
        }
        ariaLabel={t('shelfImport.title')}
      />
    </Stack>
  );
}
