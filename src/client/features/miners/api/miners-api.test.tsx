import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { configureApiClient } from '@client/lib/api-client';
import { useMinerOptions } from './miners-api';

afterEach(() => {
  vi.unstubAllGlobals();
  configureApiClient({ locale: () => 'zh-CN' });
});

const NAMES: Record<string, string> = { 'en-US': 'Offline', ru: 'Не в сети', 'zh-CN': '离线' };

describe('filter dropdown options', () => {
  it('are asked for again in the new language after a change of language', async () => {
    const i18n = i18next.createInstance();
    await i18n.use(initReactI18next).init({ lng: 'en-US', supportedLngs: ['zh-CN', 'en-US', 'ru'], resources: {} });
    // The client sends the interface language (as providers.tsx wires it); the server names the options in it.
    configureApiClient({ locale: () => i18n.language });
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      const lang = (init.headers as Record<string, string>).I18N ?? '';
      asked.push(lang);
      return new Response(JSON.stringify({ code: 0, msg: 'success', data: [{ value: 'offline', text: NAMES[lang] }] }));
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </I18nextProvider>
    );
    const { result } = renderHook(() => useMinerOptions('north-hall', 'status'), { wrapper });
    await waitFor(() => expect(result.current.data?.[0]?.text).toBe('Offline'));
    await act(() => i18n.changeLanguage('ru'));
    await waitFor(() => expect(result.current.data?.[0]?.text).toBe('Не в сети'));
    expect(asked).toEqual(['en-US', 'ru']);
  });
});
