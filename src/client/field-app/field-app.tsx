/**
 * The light field app (issue 5): header, the field home or a miner card, messages, the session banner. The
 * session and farm come from field-session.ts; the selected farm's caches are kept synced while logged in.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicConfig } from '@shared/schemas/auth';
import { useAgentKey } from '@client/lib/agent-key';
import { sendPageView } from '@client/lib/analytics';
import { i18next } from '@client/lib/i18n';
import { requestPersistence } from '@client/lib/offline/storage';
import { startSyncLoop } from '@client/lib/offline/sync';
import { scheduleSupportChat } from '@client/lib/support-chat';
import { FieldHome } from '@client/features/field/components/field-home';
import { FieldMiner } from '@client/features/field/components/field-miner';
import { FieldNoFarm } from '@client/features/field/components/field-no-farm';
import { Loading } from '@client/features/field/components/loading';
import { parseFieldPath, usePathname } from '@client/features/field/lib/field-paths';
import { FULL_CONSOLE_PATH, FieldHeader } from './field-header';
import { type SessionUser, useFieldPermission, useFieldSession } from './field-session';
import { ToastStack } from './toast-stack';

/** Keeps the selected farm's offline caches synced while logged in (stopped on a farm switch). */
function useOfflineSync(userId: string | null): void {
  const loggedIn = userId !== null;
  const agentKey = useAgentKey();
  useEffect(() => {
    if (loggedIn) void requestPersistence();
  }, [loggedIn]);
  useEffect(() => {
    if (!loggedIn || !agentKey) return;
    return startSyncLoop(agentKey, { userId: userId! });
  }, [loggedIn, agentKey, userId]);
}

/** Page views on every page change and the language's support chat, as the console does. */
function useTelemetry(path: string, config: PublicConfig | null): void {
  const { i18n } = useTranslation();
  const previous = useRef<string | null>(null);
  const endpoint = config?.analyticsEndpoint;
  useEffect(() => {
    if (!endpoint) return;
    const referrer = previous.current ?? (document.referrer || undefined);
    previous.current = path;
    const timer = setTimeout(() => void sendPageView(endpoint, { path, locale: i18next.language, title: document.title, referrer }), 0);
    return () => clearTimeout(timer);
  }, [endpoint, path]);
  const locale = i18n.language;
  const zh = config?.supportChat.zh ?? null;
  const other = config?.supportChat.other ?? null;
  useEffect(() => {
    if (!config) return undefined;
    return scheduleSupportChat(locale, { zh, other });
  }, [locale, zh, other, config]);
}

function ConnectionProblem({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('field');
  return (
    <div className="hf-empty hf-loading-full" role="alert" data-testid="field-connection-error">
      <h1 className="hf-h3">{t('app.connectionTitle')}</h1>
      <p className="hf-dimmed">{t('app.connectionBody')}</p>
      <button type="button" className="hf-button hf-button-primary" onClick={onRetry}>
        {t('app.retry')}
      </button>
    </div>
  );
}

function FieldPage({ user, path }: { user: SessionUser; path: string }) {
  const { t } = useTranslation('field');
  const agentKey = useAgentKey();
  const allowed = useFieldPermission(user);
  const route = parseFieldPath(path);
  if (!agentKey) return <FieldNoFarm />;
  if (allowed === null) return <Loading />;
  if (!allowed) {
    return (
      <div className="hf-empty" data-testid="field-forbidden">
        <h2 className="hf-h3">{t('app.forbiddenTitle')}</h2>
        <p className="hf-dimmed">{t('app.forbiddenBody')}</p>
        <a className="hf-button hf-button-primary" href={FULL_CONSOLE_PATH}>
          {t('app.fullConsole')}
        </a>
      </div>
    );
  }
  if (route.page === 'miner') return <FieldMiner key={`${agentKey}:${route.minerId}`} agentKey={agentKey} minerId={route.minerId} />;
  return <FieldHome key={agentKey} agentKey={agentKey} />;
}

export function FieldApp() {
  const { t } = useTranslation('field');
  const session = useFieldSession();
  const path = usePathname();
  const ready = session.status === 'ready';
  useOfflineSync(ready ? session.user.id : null);
  useTelemetry(path, ready ? session.config : null);
  useEffect(() => {
    document.title = `${t('home.title')} · Hashfield`;
  }, [t]);

  if (session.status === 'loading') return <Loading full />;
  if (session.status === 'error') return <ConnectionProblem onRetry={session.retry} />;
  return (
    <div className="hf-app" data-testid="app-shell">
      <FieldHeader user={session.user} farms={session.farms} onMinerPage={parseFieldPath(path).page === 'miner'} />
      <main className="hf-main">
        <FieldPage user={session.user} path={path} />
      </main>
      <ToastStack />
    </div>
  );
}
