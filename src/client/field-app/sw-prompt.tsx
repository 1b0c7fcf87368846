/**
 * The service worker for the field app: the same registration and held-update handshake as the console
 * (lib/sw-update.ts: never a forced reload; the reload waits while the outbox holds writes or a form is
 * dirty), shown as the field app's own messages. The `shell` texts load only when a message is due.
 */
import { i18next } from '@client/lib/i18n';
import { registerServiceWorker } from '@client/lib/sw-update';
import { hideToast, showToast } from '@client/features/field/lib/toasts';

const UPDATE_ID = 'sw-update';

const texts = (ns: string) => i18next.loadNamespaces(ns).then(() => i18next.getFixedT(null, ns));

function showUpdatePrompt(apply: () => void): void {
  void texts('shell').then((t) =>
    showToast({
      id: UPDATE_ID,
      title: t('update.title'),
      autoClose: false,
      message: (
        <span className="hf-row hf-row-wrap">
          <span className="hf-grow">{t('update.message')}</span>
          <button
            type="button"
            className="hf-button hf-button-primary hf-button-compact"
            data-testid="sw-update-reload"
            onClick={() => {
              hideToast(UPDATE_ID);
              apply();
            }}
          >
            {t('update.reload')}
          </button>
        </span>
      ),
    }),
  );
}

/** The user agreed, but writes wait in the outbox or a form is dirty: the reload happens once they clear. */
function showUpdateHeld(): void {
  void texts('offline').then((t) =>
    showToast({ id: UPDATE_ID, title: t('update.heldTitle'), message: <span data-testid="sw-update-held">{t('update.held')}</span>, autoClose: 8000 }),
  );
}

export function startFieldServiceWorker(): void {
  registerServiceWorker({
    onNeedRefresh: showUpdatePrompt,
    onHeld: showUpdateHeld,
    onOfflineReady: () => void texts('shell').then((t) => showToast({ message: t('update.offlineReady'), autoClose: 4000 })),
  });
}
