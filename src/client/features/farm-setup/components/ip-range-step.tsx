/** Step "IP range limit": the ranges the agent scans (added here, or in bulk on the scan-IP page), next to the agent's live state. */
import { type FormEvent, useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { formatNumber } from '@shared/format/number';
import { checkScanRange } from '@shared/schemas/scan-ip';
import { useSaveSetupRange, useScanRanges } from '../api/farm-setup-api';

export function IpRangeStep({ agentKey, canOperate }: { agentKey: string; canOperate: boolean }) {
  const { t } = useTranslation(['farm-setup', 'errors']);
  const ranges = useScanRanges(agentKey);
  const save = useSaveSetupRange();
  const [ipBegin, setBegin] = useState('');
  const [ipEnd, setEnd] = useState('');
  const [remark, setRemark] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const list = ranges.data ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = checkScanRange(ipBegin, ipEnd, remark);
    if (problems.length) {
      setErrors(Object.fromEntries(problems.map((p) => [p.field, t(`errors:${p.key}`)])));
      return;
    }
    setErrors({});
    save.mutate(
      { agentKey, ipBegin: ipBegin.trim(), ipEnd: ipEnd.trim(), remark: remark.trim() },
      {
        onSuccess: () => {
          notifySuccess(t('farm-setup:feedback.saveSuccess'));
          setBegin('');
          setEnd('');
          setRemark('');
        },
        onError: (e) => {
          if (e instanceof ApiError && Object.keys(e.fields).length) setErrors(e.fields);
          else notifyFailure(e, t('farm-setup:feedback.failed'));
        },
      },
    );
  };

  return (
    <Stack gap="sm" data-testid="step-ip">
      <Text size="sm">{t('farm-setup:ip.intro')}</Text>
      {ranges.isError ? (
        <Text size="sm" c="red">
          {t('farm-setup:feedback.loadFailed')}
        </Text>
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="ip-empty">
          {ranges.isPending ? t('farm-setup:feedback.loading') : t('farm-setup:ip.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table withTableBorder data-testid="ip-ranges">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('farm-setup:ip.begin')}</Table.Th>
                <Table.Th>{t('farm-setup:ip.end')}</Table.Th>
                <Table.Th ta="right">{t('farm-setup:ip.amount')}</Table.Th>
                <Table.Th>{t('farm-setup:ip.remark')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td ff="monospace">{r.ipBegin}</Table.Td>
                  <Table.Td ff="monospace">{r.ipEnd}</Table.Td>
                  <Table.Td ta="right">{formatNumber(r.amount)}</Table.Td>
                  <Table.Td>{r.remark || '-'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {canOperate && (
        <form onSubmit={submit} noValidate data-testid="ip-form">
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput size="sm" w={{ base: '100%', xs: 170 }} label={t('farm-setup:ip.begin')} placeholder="192.168.1.1" value={ipBegin} onChange={(e) => setBegin(e.currentTarget.value)} error={errors.ipBegin} name="ipBegin" />
            <TextInput size="sm" w={{ base: '100%', xs: 170 }} label={t('farm-setup:ip.end')} placeholder="192.168.1.254" value={ipEnd} onChange={(e) => setEnd(e.currentTarget.value)} error={errors.ipEnd} name="ipEnd" />
            <TextInput size="sm" w={{ base: '100%', xs: 170 }} label={t('farm-setup:ip.remark')} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} error={errors.remark} name="remark" />
            <Button type="submit" mt={{ base: 0, xs: 25 }} leftSection={<IconPlus size={16} />} loading={save.isPending} data-testid="ip-add">
              {t('farm-setup:ip.add')}
            </Button>
          </Group>
        </form>
      )}
      <Group gap="xs">
        <Badge variant="light">{t('farm-setup:ip.count', { count: list.length })}</Badge>
        <Anchor component={Link} to="/setting/agent/ip" size="sm">
          {t('farm-setup:ip.more')}
        </Anchor>
      </Group>
    </Stack>
  );
}
