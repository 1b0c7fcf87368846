/**
 * Fault analysis of one miner (spec 3 §1, §7 AI analysis): "Analyse" runs the server's rules on the miner's latest
 * reading and its last 24 hours (POST /api/ai/analysis, then GET /api/ai/result until done) and lists what was found,
 * most serious first, each with what to do — the texts in the interface language. While the agent reads the miner's
 * log (a stock Antminer; up to a minute or so) the reading's findings show with a note; the log's join them.
 */
import { useState } from 'react';
import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconStethoscope } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@shared/format/date';
import type { FindingSeverity } from '@shared/schemas/fault-analysis';
import { notifyFailure } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { useAnalysisResult, useStartAnalysis } from '../api/miner-records-api';
import { useMinerLabels } from '../lib/use-miner-labels';

const COLOR: Record<FindingSeverity, string> = { critical: 'red', warning: 'orange', info: 'blue' };

export function FaultAnalysisCard({ agentKey, ip }: { agentKey: string; ip: string }) {
  const { t } = useTranslation('miners');
  // Tap targets of at least 32 px on a phone (xs buttons are 30 px tall).
  const phone = usePhone();
  const { locale } = useMinerLabels();
  const [id, setId] = useState<string | null>(null);
  const start = useStartAnalysis(agentKey, ip);
  const result = useAnalysisResult(agentKey, id, locale);
  const r = result.data;
  const busy = start.isPending || (id !== null && (!r || r.status === 'pending' || r.status === 'running'));

  const run = () =>
    start.mutate(undefined, {
      onSuccess: (s) => setId(s.id),
      onError: (e) => notifyFailure(e, t('analysis.failed')),
    });

  return (
    <Card withBorder radius="md" padding="md" data-testid="miner-analysis">
      <Group justify="space-between" mb="sm" wrap="wrap" gap="xs">
        <Title order={5}>{t('analysis.title')}</Title>
        <Button size={phone ? 'sm' : 'xs'} variant="default" leftSection={<IconStethoscope size={14} />} loading={busy} onClick={run} data-testid="miner-analysis-run">
          {id ? t('analysis.again') : t('analysis.run')}
        </Button>
      </Group>
      {id === null ? (
        <Text size="sm" c="dimmed">
          {t('analysis.hint')}
        </Text>
      ) : result.isError && !r ? (
        <Alert color="red">{t('analysis.failed')}</Alert>
      ) : !r || r.status === 'pending' || (r.status === 'running' && r.findings.length === 0) ? (
        <Loader size="sm" />
      ) : r.status === 'failed' ? (
        <Alert color="red">{t('analysis.failed')}</Alert>
      ) : (
        <Stack gap="sm" data-testid="miner-analysis-result">
          <Text size="xs" c="dimmed">
            {t('analysis.when', { time: formatDate(r.analysedAt), reading: formatDate(r.readingAt) })}
          </Text>
          {r.findings.map((f, i) => (
            <Stack key={`${f.code}-${i}`} gap={2} data-testid="miner-analysis-finding" data-code={f.code}>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge color={COLOR[f.severity]} variant="light" style={{ flexShrink: 0 }}>
                  {t(`analysis.severity.${f.severity}`)}
                </Badge>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {f.reason}
                </Text>
              </Group>
              <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {f.suggestion}
              </Text>
            </Stack>
          ))}
          {r.logStatus !== 'none' && (
            <Group gap="xs" wrap="nowrap" data-testid="miner-analysis-log" data-log={r.logStatus}>
              {r.logStatus === 'waiting' && <Loader size={14} />}
              <Text size="xs" c="dimmed">
                {t(`analysis.log.${r.logStatus}`)}
              </Text>
            </Group>
          )}
          <Text size="xs" c="dimmed">
            {t('analysis.how')}
          </Text>
        </Stack>
      )}
    </Card>
  );
}
