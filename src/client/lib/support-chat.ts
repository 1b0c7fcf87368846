/**
 * Customer-support chat widget (spec 1 §1): one script for the Chinese locale, another for every other
 * locale, injected 1 s after each locale change; the previous script is removed first. Load errors are
 * logged to the console, never shown.
 */
export const SUPPORT_CHAT_DELAY_MS = 1000;
export const SUPPORT_CHAT_SCRIPT_ID = 'hf-support-chat';

export interface SupportChatUrls {
  zh: string | null;
  other: string | null;
}

export function supportChatUrl(locale: string, urls: SupportChatUrls): string | null {
  return locale === 'zh-CN' ? urls.zh : urls.other;
}

export function removeSupportChat(doc: Document = document): void {
  doc.getElementById(SUPPORT_CHAT_SCRIPT_ID)?.remove();
}

/** Schedules the widget for `locale`; returns a cancel function (call it when the locale changes again). */
export function scheduleSupportChat(locale: string, urls: SupportChatUrls, doc: Document = document): () => void {
  removeSupportChat(doc);
  const src = supportChatUrl(locale, urls);
  if (!src) return () => undefined;
  const timer = setTimeout(() => {
    try {
      removeSupportChat(doc);
      const script = doc.createElement('script');
      script.id = SUPPORT_CHAT_SCRIPT_ID;
      script.src = src;
      script.async = true;
      script.dataset.locale = locale;
      script.onerror = () => console.error(`support chat: failed to load ${src}`);
      doc.body.appendChild(script);
    } catch (err) {
      console.error('support chat: failed to inject the widget', err);
    }
  }, SUPPORT_CHAT_DELAY_MS);
  return () => clearTimeout(timer);
}
