/**
 * Page views on every route change and the language-dependent support-chat widget (spec 1 §1).
 * Both are best-effort: failures are logged to the console and never shown.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { sendPageView } from '@client/lib/analytics';
import { i18next } from '@client/lib/i18n';
import { usePublicConfig } from '@client/lib/session-api';
import { scheduleSupportChat } from '@client/lib/support-chat';

export function Telemetry() {
  const location = useLocation();
  const { i18n } = useTranslation();
  const config = usePublicConfig();
  const endpoint = config.data?.analyticsEndpoint;
  const chatZh = config.data?.supportChat.zh ?? null;
  const chatOther = config.data?.supportChat.other ?? null;
  const previous = useRef<string | null>(null);

  useEffect(() => {
    if (!endpoint) return;
    const path = location.pathname;
    const referrer = previous.current ?? (document.referrer || undefined);
    previous.current = path;
    // Let the page set its title first.
    const timer = setTimeout(() => void sendPageView(endpoint, { path, locale: i18next.language, title: document.title, referrer }), 0);
    return () => clearTimeout(timer);
  }, [endpoint, location.pathname]);

  const locale = i18n.language;
  useEffect(() => {
    if (!config.data) return undefined;
    return scheduleSupportChat(locale, { zh: chatZh, other: chatOther });
  }, [locale, chatZh, chatOther, config.data]);

  return null;
}
