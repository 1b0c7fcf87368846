/** One batch op: its parameters, the verification code when sensitive, then the live progress of the queued batch. */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@client/lib/api-client';
import { notifyFailure, notifySuccess } from '@client/lib/feedback';
import { usePhone } from '@client/lib/use-phone';
import { ERROR } from '@shared/errors';
import { type MinerBatchOp, RECORD_ONLY_OPS, isValidPoolUrl } from '@shared/schemas/batch-operations';
import { batchKeys, runBatchOp } from '../api/batch-api';
import { recordKeys } from '../api/miner-records-api';
import { minerKeys } from '../api/miners-api';
import { type BatchParams, type BatchTarget, LEAVES_LIST_OPS, defaultParams, missingNumbers, opNeedsCode, overLimit, paramsBody } from '../lib/batch-target';
import { minerCountText } from '../lib/batch-plurals';
import { BatchOpFields } from './batch-op-fields';
import { BatchProgressPanel } from './batch-progress-panel';
import { VerificationCodeStep } from './verification-code-step';

const CODE_ERRORS = new Set<number | string>([ERROR.codeRequired.code, ERROR.codeWrong.code]);
const IRREVERSIBLE: readonly MinerBatchOp[] = ['batchReset', 'batchDelete', 'batchUpgrade'];

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/**
 * The text and choice fields an op cannot run without, and the pool URLs that are not well formed (spec 3 §5), as
 * error keys of the errors catalogue: said at their fields together with a missing code, in one go, instead of one
 * round trip per field (the server checks the same and stays the authority).
 */
function fieldErrorKeys(op: MinerBatchOp, values: BatchParams): Record<string, string> {
  const out: Record<string, string> = {};
  switch (op) {
    case 'batchSetPool':
      for (const n of [1, 2, 3]) {
        const url = text(values[`pool${n}Url`]);
        if (n === 1 && url === '') out.pool1Url = 'validation.required';
        else if (url !== '' && !isValidPoolUrl(url)) out[`pool${n}Url`] = 'validation.poolUrl';
      }
      if (text(values.pool1User) === '') out.pool1User = 'validation.poolUser';
      break;
    case 'batchUpgrade':
      if (text(values.fileUrl) === '') out.fileUrl = 'validation.required';
      break;
    case 'batchCustomer':
      if (values.clear !== true && text(values.customer) === '') out.customer = 'validation.required';
      break;
    case 'batchAccident':
      if (text(values.accident) === '') out.accident = 'validation.accidentType';
      break;
    default:
      break;
  }
  return out;
}

export interface BatchOpDialogProps {
  op: MinerBatchOp;
  agentKey: string;
  targetLabel: string;
  count: number;
  resolveTarget: () => Promise<BatchTarget | null>;
  example: { ip: string; sn: string };
  onClose: () => void;
  /** The op was accepted and its miners have left the on-shelf list (LEAVES_LIST_OPS). */
  onLeftList?: () => void;
}

export function BatchOpDialog({ op, agentKey, targetLabel, count, resolveTarget, example, onClose, onLeftList }: BatchOpDialogProps) {
  const { t } = useTranslation(['miners', 'errors']);
  const qc = useQueryClient();
  const phone = usePhone();
  const [values, setValues] = useState<BatchParams>(() => defaultParams(op));
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [taskId, setTaskId] = useState<string | null>(null);
  const [summary, setSummary] = useState<string | null>(null);
  /** The request went to the farm's approver (spec 2 pool-setting approval): nothing runs until agreed. */
  const [approval, setApproval] = useState<string | null>(null);
  const sensitive = opNeedsCode(op);
  const recordsOnly = (RECORD_ONLY_OPS as readonly string[]).includes(op);
  const leavesList = LEAVES_LIST_OPS.includes(op);
  const formRef = useRef<HTMLDivElement>(null);
  /** Set by a Run that ended in messages at fields: the first of them is brought into view (on a phone it is often
   * above the screen's top, the Run button at the bottom, and no toast repeats it). */
  const revealError = useRef(false);

  useEffect(() => {
    if (!revealError.current) return;
    revealError.current = false;
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-error="true"]');
    field?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  }, [errors]);

  const showErrors = (shown: Record<string, string>) => {
    revealError.current = Object.keys(shown).length > 0;
    setErrors(shown);
  };

  /** A code typed again makes the last "wrong or expired code" stale: it goes while the new one is typed. */
  const onCode = (next: string) => {
    setCode(next);
    if (errors.code)
      setErrors((shown) => {
        const rest = { ...shown };
        delete rest.code;
        return rest;
      });
  };

  const submit = async () => {
    // Said at the fields at once, nothing sent: an emptied number, a required field left empty, or no code yet.
    const local: Record<string, string> = {};
    for (const [k, key] of Object.entries(fieldErrorKeys(op, values))) local[k] = t(`errors:${key}`);
    for (const k of missingNumbers(op, values)) local[k] = t('errors:validation.required');
    if (sensitive && code.trim() === '') local.code = t('errors:codeRequired');
    showErrors(local);
    if (Object.keys(local).length > 0) return;
    setBusy(true);
    try {
      const target = await resolveTarget();
      if (!target) throw new Error(t('batch.noSelection'));
      const body = { ...paramsBody(op, values), ...(sensitive ? { code } : {}) };
      const r = await runBatchOp(op, agentKey, target, body, crypto.randomUUID());
      if ('pending' in r) {
        setApproval(t('batch.dialog.sentForApproval', { approver: r.approver, miners: minerCountText(t, r.ipLen) }));
        notifySuccess(t('batch.dialog.sentForApprovalShort'));
        return;
      }
      const [accepted, refused] = 'success' in r ? [t('batch.progress.listSuccess', { count: r.success.length }), r.failed.length] : [t('batch.progress.queued', { count: r.queued }), r.refused.length];
      setSummary(refused > 0 ? `${accepted} · ${t('batch.progress.refused', { count: refused })}` : accepted);
      setTaskId(r.taskId);
      notifySuccess(t('batch.dialog.started'));
      void qc.invalidateQueries({ queryKey: batchKeys.all });
      // Ops on our records (customer, accident, off shelf, remove — also the record part of off shelf + DHCP and of
      // remove, which reach the miners too) are done already: the list and the off-shelf records show them now (an op
      // that only reaches miners shows in their next readings). Miners gone from the list leave the selection.
      if (recordsOnly || leavesList) {
        void qc.invalidateQueries({ queryKey: minerKeys.all });
        void qc.invalidateQueries({ queryKey: recordKeys.offShelfAll });
      }
      if (leavesList) onLeftList?.();
    } catch (e) {
      // A message that shows at its field is not repeated as a toast (which would also cover the Run button).
      let shown: Record<string, string> = {};
      if (e instanceof ApiError && CODE_ERRORS.has(e.code)) shown = { code: e.message };
      else if (e instanceof ApiError) shown = e.fields;
      showErrors(shown);
      const keys = Object.keys(shown);
      const allAtFields = keys.length > 0 && keys.every((k) => k === 'code' ? sensitive : k in values);
      if (!allAtFields) notifyFailure(e, t('batch.dialog.failed'));
    } finally {
      setBusy(false);
    }
  };

  const tooMany = overLimit(count);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(`batch.ops.${op}`)}
      size={op === 'batchSetPool' ? 'xl' : 'md'}
      fullScreen={phone}
      data-testid="batch-dialog"
    >
      {approval ? (
        <Stack gap="sm">
          <Alert color="blue" data-testid="batch-approval-sent">
            {approval}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-testid="batch-dialog-close">
              {t('batch.dialog.close')}
            </Button>
          </Group>
        </Stack>
      ) : taskId ? (
        <Stack gap="sm">
          {summary && (
            <Text size="sm" data-testid="batch-summary">
              {summary}
            </Text>
          )}
          <BatchProgressPanel agentKey={agentKey} taskId={taskId} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-testid="batch-dialog-close">
              {t('batch.dialog.close')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm" ref={formRef}>
          {/* An uploaded file's name can be one long word: it wraps instead of running past a phone's edge. */}
          <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="batch-target">
            {targetLabel}
          </Text>
          {tooMany && <Alert color="red">{t('batch.dialog.tooMany')}</Alert>}
          {recordsOnly && (
            <Text size="xs" c="dimmed">
              {t('batch.dialog.recordsOnly')}
            </Text>
          )}
          <BatchOpFields op={op} agentKey={agentKey} values={values} onChange={(k, v) => setValues((s) => ({ ...s, [k]: v }))} errors={errors} example={example} />
          {IRREVERSIBLE.includes(op) && (
            <Alert color="orange" py={6}>
              {t('batch.dialog.irreversible')}
            </Alert>
          )}
          {sensitive && <VerificationCodeStep code={code} onCode={onCode} error={errors.code} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('batch.dialog.cancel')}
            </Button>
            <Button onClick={() => void submit()} loading={busy} disabled={tooMany} color={IRREVERSIBLE.includes(op) ? 'red' : undefined} data-testid="batch-dialog-run">
              {t('batch.dialog.run')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
