import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router-dom';
import i18next, { type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import dashboard from '@locales/en-US/dashboard.json';
import { ConnectAgentCard } from './connect-agent-card';

let i18n: I18n;

beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({ lng: 'en-US', resources: { 'en-US': { dashboard } }, ns: ['dashboard'], defaultNS: 'dashboard', interpolation: { escapeValue: false } });
});

const desktopMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = desktopMatchMedia;
});
/** A phone: every max-width query matches (Mantine's useMediaQuery reads it after mounting). */
function asPhone() {
  window.matchMedia = (query: string) => ({ ...desktopMatchMedia(query), matches: query.includes('max-width') });
}

function renderCard() {
  return render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <MemoryRouter>
          <ConnectAgentCard agentKey="north-1" canOpenSettings />
        </MemoryRouter>
      </MantineProvider>
    </I18nextProvider>,
  );
}

const copyButtons = () => screen.getAllByRole('button', { name: 'Copy' });
const sizeOf = (el: HTMLElement) => el.getAttribute('style') ?? '';

describe('ConnectAgentCard', () => {
  it('on a phone: copy buttons are 34 px taps and each label sits above its value', () => {
    asPhone();
    renderCard();
    expect(copyButtons()).toHaveLength(2);
    for (const b of copyButtons()) expect(sizeOf(b)).toContain('--ai-size-lg');
    const label = screen.getByText('Server address');
    expect(label.getAttribute('style') ?? '').toContain('width: 100%');
  });

  it('on the desktop: compact copy buttons beside a 110 px label column', () => {
    renderCard();
    for (const b of copyButtons()) expect(sizeOf(b)).toContain('--ai-size-sm');
    expect(screen.getByText('Server address').getAttribute('style') ?? '').toContain('width: calc(6.875rem');
  });
});
