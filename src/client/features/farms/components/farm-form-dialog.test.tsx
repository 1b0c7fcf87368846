import type { ReactElement } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import type { i18n as I18n } from 'i18next';
import { farmsI18n, withProviders } from '../lib/test-setup';
import { FarmFormDialog } from './farm-form-dialog';

let i18n: I18n;

beforeAll(async () => {
  // jsdom has no FontFaceSet; Mantine's autosize Textarea listens to it.
  if (!('fonts' in document)) {
    Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
  }
  i18n = await farmsI18n();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const wrap = (node: ReactElement) => withProviders(i18n, node);

const input = (name: string) => {
  const el = document.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`);
  if (!el) throw new Error(`no field ${name}`);
  return el;
};

const submit = () => {
  const form = document.querySelector('[data-testid="farm-form"]');
  if (!form) throw new Error('no form');
  fireEvent.submit(form);
};

describe('FarmFormDialog', () => {
  it('shows the validation messages of spec 2 §5 without calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    render(wrap(<FarmFormDialog opened onClose={() => undefined} />));
    fireEvent.change(input('noticeEmails'), { target: { value: 'ops@example.com; boss' } });
    submit();
    expect(await screen.findByText('Farm name is required')).toBeTruthy();
    expect(screen.getByText('agentKey is required')).toBeTruthy();
    expect(screen.getByText('multiple emails separated by commas')).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows server field errors on the fields, once: not again in a notification', async () => {
    const show = vi.spyOn(notifications, 'show');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ code: 1005, msg: 'taken', data: { fields: { agentKey: 'This agentKey is already used by another farm' } } }), { status: 409 })),
    );
    render(wrap(<FarmFormDialog opened onClose={() => undefined} />));
    fireEvent.change(input('agentName'), { target: { value: 'North' } });
    fireEvent.change(input('agentKey'), { target: { value: 'north-1' } });
    submit();
    expect(await screen.findByText('This agentKey is already used by another farm')).toBeTruthy();
    expect(show).not.toHaveBeenCalled();
    show.mockRestore();
  });

  it('shows the secret once after creating, then closes with the agentKey', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ code: 0, msg: 'success', data: { agentKey: 'north-1', secret: 'S3CRET-VALUE' } })));
    vi.stubGlobal('fetch', fetchMock);
    const onClose = vi.fn();
    render(wrap(<FarmFormDialog opened onClose={onClose} />));
    fireEvent.change(input('agentName'), { target: { value: 'North' } });
    fireEvent.change(input('agentKey'), { target: { value: 'north-1' } });
    fireEvent.change(input('noticeEmails'), { target: { value: 'a@x.io, b@y.com' } });
    submit();
    expect(await screen.findByText('S3CRET-VALUE')).toBeTruthy();
    expect(screen.getByText('Copy the secret now')).toBeTruthy();
    expect(screen.getByTestId('farm-secret-command').textContent).toContain('npm run agent -- --server http://localhost:3000 --key north-1 --secret S3CRET-VALUE');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/agent/createv2');
    expect(String(init.body)).toContain('noticeEmails=a%40x.io%2Cb%40y.com');
    expect(onClose).not.toHaveBeenCalled();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'I have saved the secret' }));
    });
    await waitFor(() => expect(onClose).toHaveBeenCalledWith({ agentKey: 'north-1' }));
  });

  it('locks the agentKey when editing', () => {
    render(
      wrap(
        <FarmFormDialog
          opened
          onClose={() => undefined}
          farm={{ timeout: 0, agentKey: 'north-1', version: null, noticeEmails: '', name: 'North', agentAddr: '', selfManaged: false, lastOnlineAt: null }}
        />,
      ),
    );
    expect(input('agentKey').disabled).toBe(true);
    expect(input('agentKey').value).toBe('north-1');
    expect(input('agentName').value).toBe('North');
  });
});
