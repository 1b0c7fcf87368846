/**
 * /newMining, the add-farm wizard (spec 2 §2, §4): agent install, farm creation (only when creating; the
 * farm is created on leaving that step and its agentKey kept), IP range limit, customers, pool config,
 * security settings; previous, next, finish, cancel. Progress (mode, farm, step) is kept in the URL and in
 * local storage, so a user who leaves mid-way comes back to the same step of the same farm; each step
 * reads the farm's real state from the server. The agent secret lives only in memory.
 * The installer variant (?variant=installer, or "installer steps" on the first step for the current farm)
 * walks the agent's computer of an existing farm: check equipment, change file, restart service, create
 * sub-mining area, set IP segment.
 */
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Alert, Button, Group, Paper, Progress, Stack, Stepper, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconAlertTriangle, IconArrowLeft, IconArrowRight, IconCheck, IconHistory } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '@client/components/page-header';
import { setAgentKey, useAgentKey } from '@client/lib/agent-key';
import { notifySuccess } from '@client/lib/feedback';
import { readStorage, writeStorage } from '@client/lib/safe-storage';
import { usePermissions } from '@client/lib/session-api';
import { usePhone } from '@client/lib/use-phone';
import { PERMISSION } from '@shared/menu-catalogue';
import { SCAN_IP_PERMISSION } from '@shared/schemas/scan-ip';
import { SUB_AREA_PERMISSION, SUB_IP_PERMISSION } from '@shared/schemas/sub-areas';
import { setupKeys, useSetupFarm } from '../api/farm-setup-api';
import { AgentRunPanel } from '../components/agent-run-panel';
import { IpSegmentStep, SubAreaStep } from '../components/area-steps';
import { FARM_FORM_ID, FarmStep } from '../components/farm-step';
import { CustomersStep, PoolsStep } from '../components/hosting-steps';
import { InstallStep } from '../components/install-step';
import { ChangeFileStep, CheckEquipmentStep, RestartServiceStep } from '../components/installer-steps';
import { IpRangeStep } from '../components/ip-range-step';
import { SecurityStep } from '../components/security-step';
import { WIZARD_STORAGE_KEY, type WizardProgress, initialProgress, isAreaId, parseProgress, serialiseProgress, wizardSteps } from '../lib/wizard-state';

export function NewMiningPage() {
  const { t } = useTranslation('farm-setup');
  const navigate = useNavigate();
  const phone = usePhone();
  const qc = useQueryClient();
  const { has } = usePermissions();
  const [params, setParams] = useSearchParams();
  const [start] = useState(() => {
    const saved = parseProgress(readStorage('local', WIZARD_STORAGE_KEY));
    const p = initialProgress({ agentKey: params.get('agentKey'), step: params.get('step'), variant: params.get('variant') }, saved);
    return { progress: p, resumed: saved !== null && saved.agentKey === p.agentKey && p.agentKey !== null };
  });
  const [progress, setProgress] = useState<WizardProgress>(start.progress);
  const [resumed, setResumed] = useState(start.resumed);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [areaRequired, setAreaRequired] = useState(false);
  const steps = useMemo(() => wizardSteps(progress.mode), [progress.mode]);
  const key = steps[progress.step] ?? 'install';
  const farm = useSetupFarm(progress.agentKey);
  const currentFarm = useAgentKey();
  const last = progress.step === steps.length - 1;

  // Keep the progress where a returning user finds it: the URL and local storage.
  useEffect(() => {
    writeStorage('local', WIZARD_STORAGE_KEY, serialiseProgress(progress));
    const next = new URLSearchParams();
    if (progress.agentKey) next.set('agentKey', progress.agentKey);
    if (progress.mode === 'installer') next.set('variant', 'installer');
    next.set('step', String(progress.step));
    if (next.toString() !== params.toString()) setParams(next, { replace: true });
  }, [progress, params, setParams]);

  // The wizard's farm becomes the console's current farm, so the linked pages work on it.
  useEffect(() => {
    if (progress.agentKey && farm.data) setAgentKey(progress.agentKey);
  }, [progress.agentKey, farm.data]);

  const go = (step: number) => {
    setAreaRequired(false);
    setProgress((p) => ({ ...p, step: Math.max(0, Math.min(step, steps.length - 1)) }));
  };
  // Spec 2 §2: the sub-mining area's id must be at least 1 before its IP segments are set.
  const goNext = () => {
    if (key === 'subArea' && !isAreaId(progress.areaId)) {
      setAreaRequired(true);
      return;
    }
    go(progress.step + 1);
  };

  const startOver = () => {
    writeStorage('local', WIZARD_STORAGE_KEY, null);
    setSecret(null);
    setResumed(false);
    setProgress({ mode: 'create', agentKey: null, step: 0 });
  };

  const finish = () => {
    writeStorage('local', WIZARD_STORAGE_KEY, null);
    notifySuccess(t('feedback.finished'));
    void qc.invalidateQueries({ queryKey: setupKeys.all });
    void navigate(progress.mode === 'installer' ? '/setting/agent/subIp' : progress.agentKey ? '/device/miner' : '/');
  };

  const cancel = () =>
    modals.openConfirmModal({
      title: t('cancel.title'),
      children: <Text size="sm">{progress.mode === 'create' && progress.agentKey ? t('cancel.bodyCreated', { agentKey: progress.agentKey }) : t('cancel.body')}</Text>,
      labels: { confirm: t('cancel.confirm'), cancel: t('cancel.stay') },
      confirmProps: { color: 'red', 'data-testid': 'wizard-cancel-confirm' } as never,
      onConfirm: () => {
        writeStorage('local', WIZARD_STORAGE_KEY, null);
        void navigate('/agents');
      },
    });

  const onCreated = (agentKey: string, newSecret: string) => {
    setSecret(newSecret);
    setAgentKey(agentKey);
    setProgress((p) => ({ ...p, agentKey, step: p.step + 1 }));
    notifySuccess(t('feedback.farmCreated', { agentKey }));
  };

  const farmMissing = progress.agentKey !== null && farm.isError;
  const needsFarm = progress.mode === 'installer' || (key !== 'install' && key !== 'farm');
  const agentKey = progress.agentKey;

  let body: ReactNode;
  if (farmMissing) {
    body = (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} title={t('resume.farmGone', { agentKey })} data-testid="wizard-farm-gone">
        <Button size="xs" variant="light" onClick={startOver}>
          {t('resume.startOver')}
        </Button>
      </Alert>
    );
  } else if (key === 'install') {
    body = (
      <Stack gap="md">
        <InstallStep creating={progress.mode === 'create' && !agentKey} />
        {progress.mode === 'create' && !agentKey && currentFarm && (
          <Alert color="gray" variant="light" data-testid="wizard-existing">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="sm">{t('resume.existingHint', { agentKey: currentFarm })}</Text>
              <Group gap="xs">
                <Button size="xs" variant="light" onClick={() => setProgress({ mode: 'existing', agentKey: currentFarm, step: 0 })} data-testid="wizard-use-current">
                  {t('resume.useCurrent')}
                </Button>
                <Button size="xs" variant="default" onClick={() => setProgress({ mode: 'installer', agentKey: currentFarm, step: 0 })} data-testid="wizard-installer">
                  {t('resume.installer')}
                </Button>
              </Group>
            </Group>
          </Alert>
        )}
        {agentKey && <AgentRunPanel agentKey={agentKey} secret={secret} onSecret={setSecret} canRotate={has(PERMISSION.farmOperations)} />}
      </Stack>
    );
  } else if (key === 'farm') {
    body = agentKey ? (
      <Alert color="green" icon={<IconCheck size={18} />} data-testid="farm-created">
        {t('farm.created', { agentKey, name: farm.data?.name ?? agentKey })}
      </Alert>
    ) : !has(PERMISSION.farmOperations) ? (
      <Alert color="red">{t('farm.noPermission')}</Alert>
    ) : (
      <FarmStep onCreated={onCreated} onBusy={setBusy} />
    );
  } else if (!agentKey) {
    body = null;
  } else if (key === 'checkEquipment') {
    body = <CheckEquipmentStep agentKey={agentKey} />;
  } else if (key === 'changeFile') {
    body = <ChangeFileStep agentKey={agentKey} secret={secret} onSecret={setSecret} canRotate={has(PERMISSION.farmOperations)} />;
  } else if (key === 'restartService') {
    body = <RestartServiceStep agentKey={agentKey} />;
  } else if (key === 'subArea') {
    body = (
      <SubAreaStep
        agentKey={agentKey}
        areaId={progress.areaId}
        onArea={(id) => {
          setAreaRequired(false);
          setProgress((p) => ({ ...p, areaId: id }));
        }}
        canOperate={has(SUB_AREA_PERMISSION.operate)}
        showRequired={areaRequired}
      />
    );
  } else if (key === 'ipSegment') {
    body = <IpSegmentStep agentKey={agentKey} areaId={progress.areaId} canOperate={has(SUB_IP_PERMISSION.operate)} />;
  } else if (key === 'ipRange') {
    body = (
      <Stack gap="md">
        <AgentRunPanel agentKey={agentKey} secret={secret} onSecret={setSecret} canRotate={has(PERMISSION.farmOperations)} />
        <IpRangeStep agentKey={agentKey} canOperate={has(SCAN_IP_PERMISSION.operate)} />
      </Stack>
    );
  } else if (key === 'customers') {
    body = <CustomersStep agentKey={agentKey} />;
  } else if (key === 'pools') {
    body = <PoolsStep agentKey={agentKey} />;
  } else {
    body = <SecurityStep agentKey={agentKey} canOperate={has(PERMISSION.farmSettingsOperations)} />;
  }

  const submitsFarm = key === 'farm' && !agentKey;
  const nextDisabled = busy || farmMissing || (needsFarm && !agentKey);

  return (
    <Stack gap="md" data-testid="new-mining">
      <PageHeader
        title={progress.mode === 'installer' ? t('page.titleInstaller') : t('page.title')}
        description={agentKey ? t(progress.mode === 'installer' ? 'page.descriptionInstaller' : 'page.descriptionFarm', { agentKey }) : t('page.description')}
      />
      {resumed && agentKey && !farmMissing && (
        <Alert color="blue" icon={<IconHistory size={18} />} withCloseButton onClose={() => setResumed(false)} data-testid="wizard-resumed">
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm">{t('resume.notice', { agentKey, step: progress.step + 1 })}</Text>
            <Button size="xs" variant="subtle" onClick={startOver}>
              {t('resume.startOver')}
            </Button>
          </Group>
        </Alert>
      )}
      {phone ? (
        <Stack gap={4}>
          <Text size="sm" fw={600} data-testid="wizard-step-title">
            {t('page.stepOf', { n: progress.step + 1, total: steps.length, name: t(`steps.${key}`) })}
          </Text>
          <Progress value={((progress.step + 1) / steps.length) * 100} size="sm" aria-label={t('page.progress')} />
        </Stack>
      ) : (
        <Stepper active={progress.step} onStepClick={(i) => (i < progress.step ? go(i) : undefined)} allowNextStepsSelect={false} size="sm">
          {steps.map((s) => (
            <Stepper.Step key={s} label={t(`steps.${s}`)} data-testid={`wizard-step-${s}`} />
          ))}
        </Stepper>
      )}
      <Paper withBorder p={{ base: 'sm', sm: 'lg' }}>
        <Stack gap="md">
          {!phone && (
            <Text fw={600} data-testid="wizard-step-title">
              {t(`steps.${key}`)}
            </Text>
          )}
          {body}
        </Stack>
      </Paper>
      <Group justify="space-between" gap="xs">
        <Button variant="subtle" color="gray" onClick={cancel} data-testid="wizard-cancel">
          {t('actions.cancel')}
        </Button>
        <Group gap="xs">
          <Button variant="default" leftSection={<IconArrowLeft size={16} />} disabled={progress.step === 0 || busy} onClick={() => go(progress.step - 1)} data-testid="wizard-prev">
            {t('actions.previous')}
          </Button>
          {last ? (
            <Button leftSection={<IconCheck size={16} />} onClick={finish} disabled={nextDisabled} data-testid="wizard-finish">
              {t('actions.finish')}
            </Button>
          ) : submitsFarm ? (
            <Button type="submit" form={FARM_FORM_ID} rightSection={<IconArrowRight size={16} />} loading={busy} data-testid="wizard-next">
              {t('actions.createNext')}
            </Button>
          ) : (
            <Button rightSection={<IconArrowRight size={16} />} onClick={goNext} disabled={nextDisabled} data-testid="wizard-next">
              {t('actions.next')}
            </Button>
          )}
        </Group>
      </Group>
    </Stack>
  );
}
