/** Create / rename and move dialogs of the sub-area tree. Server messages (e.g. "level limit of 5") show on the field. */
import { type FormEvent, useState } from 'react';
import { Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { SUB_AREA_LIMITS, type SubArea } from '@shared/schemas/sub-areas';
import { useMoveSubArea, useSaveSubArea } from '../api/sub-areas-api';
import { moveTargets } from '../lib/sub-area-tree';
import { FormActions } from '@client/components/form-actions';

export type AreaDialogState = { mode: 'closed' } | { mode: 'create'; parent: SubArea | null } | { mode: 'rename'; area: SubArea } | { mode: 'move'; area: SubArea };

function NameForm({ agentKey, state, onClose }: { agentKey: string; state: Extract<AreaDialogState, { mode: 'create' | 'rename' }>; onClose: () => void }) {
  const { t } = useTranslation(['sub-areas', 'errors']);
  const save = useSaveSubArea();
  const [name, setName] = useState(state.mode === 'rename' ? state.area.name : '');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return setError(t('errors:validation.subAreaNameRequired'));
    if (trimmed.length > SUB_AREA_LIMITS.nameMax) return setError(t('errors:validation.subAreaNameMax'));
    setError(null);
    save.mutate(
      state.mode === 'rename' ? { agentKey, id: state.area.id, name: trimmed } : { agentKey, parentId: state.parent?.id ?? null, name: trimmed },
      {
        onSuccess: () => {
          notifySuccess(t('sub-areas:feedback.saveSuccess'));
          onClose();
        },
        onError: (e) => {
          if (e instanceof ApiError && (e.fields.name || e.fields.parentId)) setError(e.fields.name ?? e.fields.parentId ?? e.message);
          else notifyFailure(e, t('sub-areas:feedback.failed'));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="sub-area-form">
      <Stack gap="sm">
        {state.mode === 'create' && (
          <Text size="sm" c="dimmed">
            {state.parent ? t('sub-areas:dialog.under', { path: state.parent.path.join(' / '), level: state.parent.level + 1 }) : t('sub-areas:dialog.topLevel')}
          </Text>
        )}
        <TextInput
          label={t('sub-areas:dialog.name')}
          required
          data-autofocus
          maxLength={SUB_AREA_LIMITS.nameMax + 10}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={error}
          name="name"
        />
        <FormActions cancel={t('sub-areas:actions.cancel')} onCancel={onClose} submit={t('sub-areas:actions.save')} pending={save.isPending} submitTestId="sub-area-save" />
      </Stack>
    </form>
  );
}

function MoveForm({ agentKey, area, areas, onClose }: { agentKey: string; area: SubArea; areas: readonly SubArea[]; onClose: () => void }) {
  const { t } = useTranslation(['sub-areas', 'errors']);
  const move = useMoveSubArea();
  const targets = moveTargets(areas, area.id);
  const options = targets.map((a) => ({ value: a ? String(a.id) : 'top', label: a ? a.path.join(' / ') : t('sub-areas:dialog.topLevelOption') }));
  const [target, setTarget] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target) return setError(t('sub-areas:dialog.chooseTarget'));
    move.mutate(
      { agentKey, id: area.id, parentId: target === 'top' ? null : Number(target) },
      {
        onSuccess: () => {
          notifySuccess(t('sub-areas:feedback.moveSuccess'));
          onClose();
        },
        onError: (e) => {
          if (e instanceof ApiError && e.fields.parentId) setError(e.fields.parentId);
          else notifyFailure(e, t('sub-areas:feedback.failed'));
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate data-testid="sub-area-move-form">
      <Stack gap="sm">
        <Text size="sm">{t('sub-areas:dialog.moveHint', { path: area.path.join(' / ') })}</Text>
        {options.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('sub-areas:dialog.noTargets')}
          </Text>
        ) : (
          <Select label={t('sub-areas:dialog.target')} data={options} value={target} onChange={setTarget} searchable comboboxProps={{ withinPortal: true }} error={error} data-testid="sub-area-move-target" />
        )}
        <FormActions cancel={t('sub-areas:actions.cancel')} onCancel={onClose} submit={t('sub-areas:actions.move')} pending={move.isPending} submitDisabled={options.length === 0} submitTestId="sub-area-move-save" />
      </Stack>
    </form>
  );
}

export function SubAreaDialog({ agentKey, state, areas, onClose }: { agentKey: string; state: AreaDialogState; areas: readonly SubArea[]; onClose: () => void }) {
  const { t } = useTranslation('sub-areas');
  const phone = usePhone();
  if (state.mode === 'closed') return null;
  const title = state.mode === 'create' ? (state.parent ? t('dialog.addChild') : t('dialog.addTop')) : state.mode === 'rename' ? t('dialog.rename') : t('dialog.move');
  return (
    <Modal opened onClose={onClose} title={title} fullScreen={phone} size="md">
      {state.mode === 'move' ? <MoveForm agentKey={agentKey} area={state.area} areas={areas} onClose={onClose} /> : <NameForm agentKey={agentKey} state={state} onClose={onClose} />}
    </Modal>
  );
}
