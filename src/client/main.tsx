/**
 * Bootstrap: picks the app for the address. The technician's pages (/field, /field/miner/:id) get the light
 * field app (React, i18next, Dexie, plain CSS: the phone's first load stays small, issue 5); every other path
 * gets the full console. Between the two a link is a full page load (index.html is the same for both).
 */
import { FIELD_HOME_PATH, isFieldPath } from '@client/features/field/lib/field-paths';
import { isPhoneScreen, landsOnField } from '@client/lib/field-landing';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing in index.html');

let storage: Storage | null = null;
try {
  storage = window.localStorage;
} catch {
  /* storage blocked: the console decides the landing */
}
if (landsOnField(window.location.pathname, storage, isPhoneScreen())) {
  window.history.replaceState(window.history.state, '', FIELD_HOME_PATH + window.location.search + window.location.hash);
}

const start: Promise<void> = isFieldPath(window.location.pathname)
  ? import('./field-app/field-main').then((m) => m.startFieldApp(container))
  : import('./app/console-main').then((m) => m.startConsole(container));

start.catch((err: unknown) => {
  // The chunk could not be fetched (offline before the service worker cached it, or a deploy removed it).
  console.error('start failed', err);
  const p = document.createElement('p');
  p.style.cssText = 'font: 16px system-ui, sans-serif; padding: 24px; text-align: center';
  p.textContent = 'Hashfield could not start. Check the connection and reload. / 无法启动，请检查网络后刷新。 / Не удалось запустить: проверьте сеть и обновите страницу.';
  const retry = document.createElement('button');
  retry.textContent = '⟳';
  retry.style.cssText = 'display: block; margin: 12px auto; font-size: 20px; padding: 8px 20px';
  retry.onclick = () => window.location.reload();
  container.replaceChildren(p, retry);
});
