/**
 * Batch operations on the miner list: the grouped op menu (disabled with a tooltip while nothing is
 * selected), the IP-list upload that becomes the target, the pool configuration file, the batch log; hidden without the
 * miner-operations key (10500).
 */
import { useState } from 'react';
import { Button, CloseButton, FileButton, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconFileSpreadsheet, IconHistory, IconListCheck, IconUpload } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { boundedDropdownMiddlewares, boundedDropdownStyle } from '@client/lib/bounded-dropdown';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePermissions } from '@client/lib/session-api';
import { usePhone } from '@client/lib/use-phone';
import { formatNumber } from '@shared/format/number';
import { PERMISSION } from '@shared/menu-catalogue';
import type { MinerBatchOp } from '@shared/schemas/batch-operations';
import { uploadIpList } from '../api/batch-api';
import { getAllMatchingMiners } from '../api/miners-api';
import { ipCountText, minerCountText, uploadedListText } from '../lib/batch-plurals';
import { BATCH_OP_GROUPS, type UploadedIpList, poolConfigScopeOf, selectionTarget } from '../lib/batch-target';
import { type MinerSelection, selectedRows } from '../lib/miner-selection';
import { BatchLogDrawer } from './batch-log-drawer';
import { BatchOpDialog } from './batch-op-dialog';
import { PoolConfigFileDialog } from './pool-config-file-dialog';

export function BatchOperationsBar({ agentKey, selection, count, onLeftList }: { agentKey: string; selection: MinerSelection; count: number; onLeftList?: () => void }) {
  const { t } = useTranslation('miners');
  const perms = usePermissions();
  const phone = usePhone();
  // Tap targets of at least 32 px on a phone (compact buttons are 26 px).
  const size = phone ? 'sm' : 'compact-sm';
  const [uploaded, setUploaded] = useState<UploadedIpList | null>(null);
  const [uploading, setUploading] = useState(false);
  const [op, setOp] = useState<MinerBatchOp | null>(null);
  const [logOpen, setLogOpen] = useState(false);
  const [poolConfigOpen, setPoolConfigOpen] = useState(false);
  if (!perms.has(PERMISSION.minerOperations)) return null;

  const targetCount = uploaded ? uploaded.matched : count;
  const disabled = targetCount === 0;
  const targetLabel = uploaded
    ? // The miners it reaches (the list's addresses that are miners of this farm), not only how many lines it had.
      t('batch.dialog.targetList', { name: uploaded.fileName, ips: ipCountText(t, uploaded.count), miners: minerCountText(t, uploaded.matched) })
    : selection.kind === 'matching'
      ? t('batch.dialog.targetMatching', { count: formatNumber(count) })
      : t('batch.dialog.targetSelection', { count: formatNumber(count) });
  const first = selectedRows(selection)[0];
  const poolConfigScope = poolConfigScopeOf(selection);
  const example = { ip: first?.ip ?? '10.0.0.1', sn: first?.sn ?? '' };

  const onFile = async (file: File | null) => {
    if (!file) return;
    setUploading(true);
    try {
      const r = await uploadIpList(agentKey, file);
      setUploaded({ fileId: r.fileId, count: r.count, matched: r.matched, fileName: file.name });
      const notes = [uploadedListText(t, { name: file.name, count: r.count, matched: r.matched })];
      if (r.invalid.length) notes.push(t('batch.uploadInvalid', { count: r.invalid.length }));
      if (r.unmatched.length) notes.push(t('batch.uploadUnmatched', { count: r.unmatched.length }));
      notifySuccess(notes.join(' · '));
    } catch (e) {
      notifyFailure(e, t('batch.dialog.failed'));
    } finally {
      setUploading(false);
    }
  };

  const menu = (
    <Menu position="bottom-start" withinPortal middlewares={boundedDropdownMiddlewares}>
      <Menu.Target>
        <Button size={size} variant="filled" leftSection={<IconListCheck size={14} />} rightSection={<IconChevronDown size={12} />} disabled={disabled} data-testid="batch-menu">
          {t('batch.menu')}
        </Button>
      </Menu.Target>
      {/* Taller than a phone's screen: kept within the window, scrolling inside (every op reachable). */}
      <Menu.Dropdown style={boundedDropdownStyle} data-testid="batch-menu-dropdown">
        {BATCH_OP_GROUPS.map((g, i) => (
          <div key={g.key}>
            {i > 0 && <Menu.Divider />}
            <Menu.Label>{t(`batch.groups.${g.key}`)}</Menu.Label>
            {g.ops.map((o) => (
              <Menu.Item key={o} onClick={() => setOp(o)} data-testid={`batch-op-${o}`}>
                {t(`batch.ops.${o}`)}
              </Menu.Item>
            ))}
          </div>
        ))}
        <Menu.Divider />
        <Menu.Item leftSection={<IconFileSpreadsheet size={14} />} onClick={() => setPoolConfigOpen(true)} data-testid="batch-op-pool-config">
          {t('poolConfig.title')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <Group gap="xs" wrap="wrap" data-testid="batch-bar">
      {disabled ? (
        <Tooltip label={t('batch.noSelection')} withinPortal>
          <span data-testid="batch-menu-disabled">{menu}</span>
        </Tooltip>
      ) : (
        menu
      )}
      <FileButton onChange={(f) => void onFile(f)} accept=".txt,.xlsx,.xls,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel">
        {(props) => (
          // Wrapped: on a phone the hint would run past the screen's edge (and scroll the page sideways).
          <Tooltip label={t('batch.uploadHint')} withinPortal multiline maw="calc(100vw - 32px)">
            <Button {...props} size={size} variant="default" leftSection={<IconUpload size={14} />} loading={uploading} data-testid="batch-upload">
              {t('batch.upload')}
            </Button>
          </Tooltip>
        )}
      </FileButton>
      {uploaded && (
        // The file's name as it is (a badge would print it in capitals and cut it), wrapping on a phone.
        <Group
          gap={4}
          wrap="nowrap"
          maw="100%"
          pl="sm"
          pr={4}
          py={2}
          bg="var(--mantine-color-blue-light)"
          style={{ borderRadius: 'var(--mantine-radius-xl)' }}
          data-testid="batch-uploaded"
        >
          <Text size="sm" fw={500} c="var(--mantine-color-blue-light-color)" style={{ overflowWrap: 'anywhere' }}>
            {uploadedListText(t, { name: uploaded.fileName, count: uploaded.count, matched: uploaded.matched })}
          </Text>
          <CloseButton size={phone ? 'lg' : 'sm'} aria-label={t('batch.clearUpload')} onClick={() => setUploaded(null)} />
        </Group>
      )}
      {/* Rows selected while a list is loaded are not what an operation will touch: say so where the count shows. */}
      {uploaded && count > 0 && (
        <Text size="xs" c="orange.8" data-testid="batch-upload-overrides">
          {t('batch.uploadOverridesSelection', { count: formatNumber(count) })}
        </Text>
      )}
      {/* Also without a selection (the menu is disabled then): the file covers the whole farm. */}
      <Button size={size} variant="default" leftSection={<IconFileSpreadsheet size={14} />} onClick={() => setPoolConfigOpen(true)} data-testid="pool-config-open">
        {t('poolConfig.title')}
      </Button>
      <Button size={size} variant="subtle" leftSection={<IconHistory size={14} />} onClick={() => setLogOpen(true)} data-testid="batch-log-open">
        {t('batch.log')}
      </Button>
      {op && (
        <BatchOpDialog
          op={op}
          agentKey={agentKey}
          targetLabel={targetLabel}
          count={targetCount}
          example={example}
          resolveTarget={() =>
            selectionTarget(selection, uploaded, async (filter) => (await getAllMatchingMiners(agentKey, { filter })).map((r) => r.ip))
          }
          onClose={() => setOp(null)}
          onLeftList={onLeftList}
        />
      )}
      {poolConfigOpen && (
        <PoolConfigFileDialog
          agentKey={agentKey}
          selectedCount={poolConfigScope ? count : 0}
          resolveScope={() => poolConfigScope ?? {}}
          onClose={() => setPoolConfigOpen(false)}
          onOpenLog={() => {
            setPoolConfigOpen(false);
            setLogOpen(true);
          }}
        />
      )}
      <BatchLogDrawer agentKey={agentKey} opened={logOpen} onClose={() => setLogOpen(false)} />
    </Group>
  );
}
