/**
 * The field app's header: brand, the farm (same selection as the console), the sync / offline indicator, and
 * a menu with the language, the full console (a full page load) and logout. One line at 360 px.
 */
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Option } from '@shared/schemas/common';
import { LOCALES, type Locale } from '@shared/validation';
import { setAgentKey, useAgentKey } from '@client/lib/agent-key';
import { endSession } from '@client/lib/end-session';
import { changeLocale, currentLocale } from '@client/lib/i18n';
import { FIELD_HOME_PATH, navigateTo } from '@client/features/field/lib/field-paths';
import { goToLogin, type SessionUser } from './field-session';
import { OutboxIndicator } from './outbox-indicator';

export const LOCALE_NAMES: Record<Locale, string> = { 'zh-CN': '简体中文', 'en-US': 'English', ru: 'Русский' };
/**
 * Where "Full console" leads: the miner list. Not "/": a phone opening the console at its dashboard lands on
 * the field pages again (the console's phone landing), so the technician could never reach the console.
 */
export const FULL_CONSOLE_PATH = '/device/miner';

/** Logout (lib/end-session.ts), then the login page or the address the server answered, without the field session. */
async function logout(): Promise<void> {
  goToLogin(await endSession());
}

export function FieldHeader({ user, farms, onMinerPage }: { user: SessionUser; farms: Option[]; onMinerPage: boolean }) {
  const { t, i18n } = useTranslation('field');
  const agentKey = useAgentKey();
  const menu = useRef<HTMLDetailsElement>(null);
  void i18n.language; // re-render on a language change
  const locale = currentLocale();
  return (
    <header className="hf-header">
      <a className="hf-brand" href={FULL_CONSOLE_PATH} aria-label={t('app.fullConsole')}>
        <img src="/favicon-32.png" width={24} height={24} alt="" />
        <span className="hf-brand-name">Hashfield</span>
      </a>
      <select
        className="hf-input hf-farm-select"
        aria-label={t('app.farm')}
        value={agentKey ?? ''}
        onChange={(e) => {
          setAgentKey(e.currentTarget.value || null);
          // A miner id belongs to its farm: a switch goes back to the field home.
          if (onMinerPage) navigateTo(FIELD_HOME_PATH, { replace: true });
        }}
        data-testid="farm-select"
      >
        {farms.length === 0 && <option value="">{t('app.noFarm')}</option>}
        {farms.map((f) => (
          <option key={f.value} value={f.value}>
            {f.text}
          </option>
        ))}
      </select>
      <a className="hf-header-link hf-desktop-only" href={FULL_CONSOLE_PATH}>
        {t('app.fullConsole')}
      </a>
      <OutboxIndicator />
      <details className="hf-menu" ref={menu}>
        <summary className="hf-icon-button" aria-label={t('app.menu')} data-testid="field-menu">
          ☰
        </summary>
        <div className="hf-menu-panel">
          <div className="hf-small hf-dimmed hf-truncate">{user.user}</div>
          <label className="hf-label" htmlFor="field-language">
            {t('app.language')}
          </label>
          <select
            id="field-language"
            className="hf-input"
            value={locale}
            onChange={(e) => {
              void changeLocale(e.currentTarget.value as Locale);
              menu.current?.removeAttribute('open');
            }}
            data-testid="language-switcher"
          >
            {LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
          </select>
          <a className="hf-button hf-button-default" href={FULL_CONSOLE_PATH} data-testid="field-full-console">
            {t('app.fullConsole')}
          </a>
          <button type="button" className="hf-button hf-button-subtle-red" onClick={() => void logout()} data-testid="field-logout">
            {t('app.logout')}
          </button>
        </div>
      </details>
    </header>
  );
}
