/**
 * /field — the technician's phone home: one big search box (SN or IP; matches from this device's cache as
 * you type), the Scan button, the recently opened miners and how fresh the cache is. Everything reads the
 * local cache (IndexedDB), so it works with no network at all.
 */
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDeviceDesktop, IconScan, IconSearch } from '@tabler/icons-react';
import { useLiveQuery } from 'dexie-react-hooks';
import { type FormEvent, Suspense, lazy, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { checkSn } from '@shared/sn';
import { useAgentKey } from '@client/lib/agent-key';
import { FieldNoFarm } from '../components/field-no-farm';
import { MinerRow } from '../components/miner-row';
import { RecentMiners } from '../components/recent-miners';
import { SyncStatusLine } from '../components/sync-status-line';
import { findBySn, searchCache } from '../lib/field-cache';
import { useCacheStatus } from '../lib/use-cache-status';

// The scan dialog (Modal, camera, decoder) loads when the user taps Scan, not with the page.
const ScanDialog = lazy(() => import('../components/scan-dialog').then((m) => ({ default: m.ScanDialog })));

export function FieldHomePage() {
  const agentKey = useAgentKey();
  if (!agentKey) return <FieldNoFarm />;
  return <FieldHome key={agentKey} agentKey={agentKey} />;
}

function FieldHome({ agentKey }: { agentKey: string }) {
  const { t } = useTranslation('field');
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [scanOpen, setScanOpen] = useState(false);
  const [missing, setMissing] = useState<string | null>(null);
  const status = useCacheStatus(agentKey);
  const query = text.trim();
  const results = useLiveQuery(async () => ({ query, rows: await searchCache(agentKey, query) }), [agentKey, query]);

  // Enter: a whole SN opens its card directly; otherwise the first match.
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!query) return;
    const sn = checkSn(query);
    if (sn.ok) {
      const miner = await findBySn(agentKey, sn.sn);
      if (miner) {
        navigate(`/field/miner/${encodeURIComponent(miner.id)}`);
        return;
      }
    }
    const first = results?.query === query ? results.rows[0] : undefined;
    if (first) navigate(`/field/miner/${encodeURIComponent(first.id)}`);
    else setMissing(query);
  };

  const rows = results?.query === query ? results.rows : [];
  const whole = checkSn(query);
  return (
    <Stack gap="md" maw={720} mx="auto" data-testid="field-home">
      <SyncStatusLine agentKey={agentKey} />
      {status.loaded && status.count === 0 && (
        <Alert color="yellow" data-testid="field-cache-empty">
          {t('home.cacheEmpty')}
        </Alert>
      )}
      <form onSubmit={(e) => void submit(e)} role="search" noValidate>
        <TextInput
          size="xl"
          radius="md"
          label={t('home.searchLabel')}
          placeholder={t('home.searchPlaceholder')}
          leftSection={<IconSearch size={24} />}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setMissing(null);
          }}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          enterKeyHint="search"
          inputMode="text"
          data-testid="field-search"
        />
      </form>
      <Button size="xl" radius="md" leftSection={<IconScan size={28} />} onClick={() => setScanOpen(true)} data-testid="field-scan">
        {t('home.scan')}
      </Button>
      {query && (
        <Stack gap={4} data-testid="field-results">
          <Title order={4}>{t('home.results')}</Title>
          {rows.length > 0 ? (
            <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
              {rows.map((m) => (
                <MinerRow key={m.id} miner={m} testId="field-result-row" />
              ))}
            </Paper>
          ) : results?.query === query ? (
            <Alert color={missing ? 'orange' : 'gray'} data-testid="field-no-results">
              {whole.ok ? t('scan.notFound', { sn: whole.sn }) : t('home.noResults', { text: query })}
            </Alert>
          ) : null}
        </Stack>
      )}
      <RecentMiners agentKey={agentKey} />
      <Text size="sm" ta="center" visibleFrom="sm">
        <Anchor component={Link} to="/device/miner">
          <IconDeviceDesktop size={14} style={{ verticalAlign: -2, marginRight: 4 }} aria-hidden />
          {t('home.desktop')}
        </Anchor>
      </Text>
      {scanOpen && (
        <Suspense fallback={null}>
          <ScanDialog agentKey={agentKey} opened onClose={() => setScanOpen(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
