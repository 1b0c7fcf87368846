/**
 * The installer variant's last two steps, through the sub-area and sub-IP calls (/api/minerv2/agentSubArea/*,
 * /api/minerv2/agentSubIp/*):
 * - create sub-mining area: create one (optionally under a parent) or choose an existing leaf; its id (≥ 1,
 *   spec 3 §5) is kept for the next step;
 * - set IP segment: the chosen area's segments, one per line (CIDR, single address or begin-end, spec 3 §5);
 *   the server saves all lines or none and names the bad lines.
 */
import { type FormEvent, useState } from 'react';
import { Alert, Badge, Button, Group, Select, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { IconCheck, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { formatNumber } from '@shared/format/number';
import { SUB_AREA_LIMITS, type SubArea } from '@shared/schemas/sub-areas';
import { useCreateSetupArea, useSaveSetupSegments, useSetupAreas, useSetupSegments } from '../api/farm-setup-api';

const areaLabel = (a: SubArea) => `${a.path.join(' / ')} (id ${a.id})`;

export interface SubAreaStepProps {
  agentKey: string;
  areaId: number | undefined;
  onArea: (id: number) => void;
  canOperate: boolean;
  /** The page asked to move on without an area. */
  showRequired: boolean;
}

export function SubAreaStep({ agentKey, areaId, onArea, canOperate, showRequired }: SubAreaStepProps) {
  const { t } = useTranslation(['farm-setup', 'errors']);
  const areas = useSetupAreas(agentKey);
  const create = useCreateSetupArea();
  const [name, setName] = useState('');
  const [parentId, setParentId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const list = areas.data ?? [];
  const chosen = list.find((a) => a.id === areaId);
  // Segments belong to leaves: an area can be chosen while it has no sub-areas, be a parent while it has no segments.
  const leaves = list.filter((a) => a.childCount === 0);
  const parents = list.filter((a) => a.segmentCount === 0 && a.level < SUB_AREA_LIMITS.maxLevels);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setErrors({ name: t('farm-setup:subArea.nameRequired') });
      return;
    }
    if (trimmed.length > SUB_AREA_LIMITS.nameMax) {
      setErrors({ name: t('farm-setup:subArea.nameMax', { max: SUB_AREA_LIMITS.nameMax }) });
      return;
    }
    setErrors({});
    create.mutate(
      { agentKey, name: trimmed, parentId: parentId ? Number(parentId) : null },
      {
        onSuccess: (area) => {
          notifySuccess(t('farm-setup:feedback.saveSuccess'));
          setName('');
          onArea(area.id);
        },
        onError: (e) => {
          if (e instanceof ApiError && Object.keys(e.fields).length) setErrors(e.fields);
          else notifyFailure(e, t('farm-setup:feedback.failed'));
        },
      },
    );
  };

  if (areas.isError) return <Alert color="gray">{t('farm-setup:subArea.noAccess')}</Alert>;
  return (
    <Stack gap="md" data-testid="step-sub-area">
      <Text size="sm">{t('farm-setup:subArea.intro')}</Text>
      {chosen ? (
        <Alert color="green" icon={<IconCheck size={18} />} data-testid="area-chosen">
          {t('farm-setup:subArea.chosen', { name: chosen.path.join(' / '), id: chosen.id })}
        </Alert>
      ) : (
        showRequired && (
          <Alert color="red" data-testid="area-required">
            {t('farm-setup:subArea.required')}
          </Alert>
        )
      )}
      {areas.isPending ? (
        <Text size="sm" c="dimmed">
          {t('farm-setup:feedback.loading')}
        </Text>
      ) : leaves.length > 0 ? (
        <Select
          label={t('farm-setup:subArea.choose')}
          placeholder={t('farm-setup:subArea.choosePlaceholder')}
          data={leaves.map((a) => ({ value: String(a.id), label: areaLabel(a) }))}
          value={chosen ? String(chosen.id) : null}
          onChange={(v) => v && onArea(Number(v))}
          searchable
          maw={480}
          comboboxProps={{ withinPortal: true }}
          data-testid="area-select"
        />
      ) : (
        <Text size="sm" c="dimmed" data-testid="area-empty">
          {t('farm-setup:subArea.empty')}
        </Text>
      )}
      {canOperate ? (
        <form onSubmit={submit} noValidate data-testid="area-form">
          <Group align="flex-start" gap="xs" wrap="wrap">
            <TextInput size="sm" w={{ base: '100%', xs: 220 }} label={t('farm-setup:subArea.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} name="areaName" />
            <Select
              size="sm"
              w={{ base: '100%', xs: 260 }}
              label={t('farm-setup:subArea.parent')}
              placeholder={t('farm-setup:subArea.topLevel')}
              clearable
              data={parents.map((a) => ({ value: String(a.id), label: areaLabel(a) }))}
              value={parentId}
              onChange={setParentId}
              error={errors.parentId}
              comboboxProps={{ withinPortal: true }}
            />
            <Button type="submit" mt={{ base: 0, xs: 25 }} leftSection={<IconPlus size={16} />} loading={create.isPending} data-testid="area-create">
              {t('farm-setup:subArea.create')}
            </Button>
          </Group>
        </form>
      ) : (
        <Text size="sm" c="dimmed">
          {t('farm-setup:subArea.noRight')}
        </Text>
      )}
    </Stack>
  );
}

export function IpSegmentStep({ agentKey, areaId, canOperate }: { agentKey: string; areaId: number | undefined; canOperate: boolean }) {
  const { t } = useTranslation('farm-setup');
  const areas = useSetupAreas(agentKey);
  const segments = useSetupSegments(agentKey, areaId ?? null);
  const save = useSaveSetupSegments();
  const [text, setText] = useState('');
  const [remark, setRemark] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const area = areas.data?.find((a) => a.id === areaId);
  const rows = segments.data?.list ?? [];

  if (!areaId) return <Alert color="gray">{t('segment.noArea')}</Alert>;
  if (segments.isError) return <Alert color="gray">{t('segment.noAccess')}</Alert>;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setErrors({ segments: t('segment.required') });
      return;
    }
    setErrors({});
    save.mutate(
      { agentKey, areaId, segments: text, remark: remark.trim() },
      {
        onSuccess: (r) => {
          notifySuccess(t('segment.saved', { count: r.saved }));
          setText('');
          setRemark('');
        },
        onError: (e) => {
          if (e instanceof ApiError && Object.keys(e.fields).length) setErrors(e.fields);
          else notifyFailure(e, t('feedback.failed'));
        },
      },
    );
  };

  return (
    <Stack gap="md" data-testid="step-ip-segment">
      <Text size="sm">{t('segment.intro', { name: area ? area.path.join(' / ') : `id ${areaId}` })}</Text>
      {segments.isPending ? (
        <Text size="sm" c="dimmed">
          {t('feedback.loading')}
        </Text>
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="segments-empty">
          {t('segment.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table withTableBorder data-testid="segments">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('segment.segment')}</Table.Th>
                <Table.Th ta="right">{t('ip.amount')}</Table.Th>
                <Table.Th ta="right">{t('segment.miners')}</Table.Th>
                <Table.Th>{t('ip.remark')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td ff="monospace">{s.segment}</Table.Td>
                  <Table.Td ta="right">{formatNumber(s.amount)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(s.minerCount)}</Table.Td>
                  <Table.Td>{s.remark || '-'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {rows.length > 0 && <Badge variant="light">{t('segment.count', { count: segments.data?.total ?? rows.length })}</Badge>}
      {canOperate ? (
        <form onSubmit={submit} noValidate data-testid="segment-form">
          <Stack gap="xs" maw={520}>
            <Textarea
              label={t('segment.label')}
              description={t('segment.hint')}
              placeholder={'192.168.1.0/24\n192.168.2.10-192.168.2.200'}
              autosize
              minRows={3}
              maxRows={8}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              error={errors.segments ? <span style={{ whiteSpace: 'pre-line' }}>{errors.segments}</span> : undefined}
              name="segments"
              styles={{ input: { fontFamily: 'monospace' } }}
            />
            <TextInput label={t('ip.remark')} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} error={errors.remark} name="segmentRemark" />
            <Group>
              <Button type="submit" leftSection={<IconPlus size={16} />} loading={save.isPending} data-testid="segment-save">
                {t('segment.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Text size="sm" c="dimmed">
          {t('segment.noRight')}
        </Text>
      )}
    </Stack>
  );
}
