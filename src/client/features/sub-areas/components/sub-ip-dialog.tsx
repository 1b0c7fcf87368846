/** Add IP segments (one per line) to a leaf sub-area, or edit one segment. Line problems are listed under the text. */
import { type FormEvent, useMemo, useState } from 'react';
import { Alert, List, Modal, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { SUB_AREA_LIMITS, type SubArea, type SubIpSegment, parseSegmentLines } from '@shared/schemas/sub-areas';
import { useSaveSubIp } from '../api/sub-areas-api';
import { leafAreas } from '../lib/sub-area-tree';
import { FormActions } from '@client/components/form-actions';

export interface SubIpDialogProps {
  agentKey: string;
  areas: readonly SubArea[];
  /** Edit this segment; add when absent. */
  segment?: SubIpSegment;
  defaultAreaId?: number | null;
  onClose: () => void;
}

function SubIpForm({ agentKey, areas, segment, defaultAreaId, onClose }: SubIpDialogProps) {
  const { t } = useTranslation(['sub-areas', 'errors']);
  const save = useSaveSubIp();
  const leaves = useMemo(() => leafAreas(areas), [areas]);
  const initialArea = segment?.areaId ?? (defaultAreaId && leaves.some((a) => a.id === defaultAreaId) ? defaultAreaId : null);
  const [areaId, setAreaId] = useState<string | null>(initialArea ? String(initialArea) : null);
  const [text, setText] = useState(segment?.segment ?? '');
  const [remark, setRemark] = useState(segment?.remark ?? '');
  const [checked, setChecked] = useState(false);
  const [areaError, setAreaError] = useState<string | null>(null);
  const [serverErrors, setServerErrors] = useState<string[]>([]);
  const parsed = useMemo(() => parseSegmentLines(text), [text]);
  const localErrors = checked
    ? parsed.errors.map((e) => (e.line === 0 ? t(`errors:${e.key}`) : t('errors:validation.scanIpLine', { line: e.line, message: t(`errors:${e.key}`, e.vars) })))
    : [];
  const errors = localErrors.length ? localErrors : serverErrors;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    setServerErrors([]);
    const area = areaId ? Number(areaId) : null;
    setAreaError(area ? null : t('errors:validation.subAreaLeafRequired'));
    if (!area || parsed.errors.length) return;
    save.mutate(
      { agentKey, id: segment?.id, areaId: area, segments: text, remark },
      {
        onSuccess: (r) => {
          notifySuccess(t('sub-areas:feedback.segmentsSaved', { count: r.saved }));
          onClose();
        },
        onError: (e) => {
          if (e instanceof ApiError && e.fields.segments) setServerErrors(e.fields.segments.split('\n'));
          else if (e instanceof ApiError && e.fields.areaId) setAreaError(e.fields.areaId);
          else notifyFailure(e, t('sub-areas:feedback.failed'));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="sub-ip-form">
      <Stack gap="sm">
        <Select
          label={t('sub-areas:subIp.area')}
          description={t('sub-areas:subIp.areaHint')}
          required
          searchable
          data={leaves.map((a) => ({ value: String(a.id), label: a.path.join(' / ') }))}
          value={areaId}
          onChange={(v) => {
            setAreaId(v);
            setAreaError(null);
          }}
          error={areaError}
          nothingFoundMessage={t('sub-areas:subIp.noLeaves')}
          comboboxProps={{ withinPortal: true }}
          data-testid="sub-ip-area"
        />
        <Textarea
          label={t('sub-areas:subIp.segments')}
          description={segment ? t('sub-areas:subIp.segmentOne') : t('sub-areas:subIp.segmentsHint', { max: SUB_AREA_LIMITS.maxLines })}
          placeholder={'192.168.1.0/24\n192.168.2.10-192.168.2.90\n192.168.3.7'}
          required
          autosize
          minRows={segment ? 1 : 5}
          maxRows={14}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setServerErrors([]);
          }}
          error={errors.length > 0}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          data-testid="sub-ip-segments"
        />
        {errors.length > 0 && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} p="xs" data-testid="sub-ip-errors">
            <List size="sm" spacing={2}>
              {errors.map((e) => (
                <List.Item key={e}>{e}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {!checked || parsed.errors.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('sub-areas:subIp.parsed', { count: parsed.segments.length })}
          </Text>
        ) : null}
        <TextInput label={t('sub-areas:subIp.remark')} maxLength={SUB_AREA_LIMITS.remarkMax} value={remark} onChange={(e) => setRemark(e.currentTarget.value)} />
        <FormActions cancel={t('sub-areas:actions.cancel')} onCancel={onClose} submit={t('sub-areas:actions.save')} pending={save.isPending} submitTestId="sub-ip-save" />
      </Stack>
    </form>
  );
}

export function SubIpDialog(props: SubIpDialogProps & { opened: boolean }) {
  const { t } = useTranslation('sub-areas');
  const phone = usePhone();
  const { opened, ...rest } = props;
  return (
    <Modal opened={opened} onClose={props.onClose} title={props.segment ? t('subIp.editTitle') : t('subIp.addTitle')} fullScreen={phone} size="lg">
      {opened && <SubIpForm {...rest} />}
    </Modal>
  );
}
