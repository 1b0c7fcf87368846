/**
 * The batch dialog as a technician meets it: an emptied number is required at its field (never sent as 0), the
 * verification-code step offers what the user can receive (area code 86: e-mail only; nothing bound: a link to the
 * user center), the resend countdown continues in a dialog opened again within the minute, and a failure's English
 * detail from the agent is not shown in another language.
 */
import type { ReactElement } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import enErrors from '@locales/en-US/errors.json';
import enMiners from '@locales/en-US/miners.json';
import ruErrors from '@locales/ru/errors.json';
import ruMiners from '@locales/ru/miners.json';
import { sessionKeys } from '@client/lib/session-api';
import type { MinerBatchOp } from '@shared/schemas/batch-operations';
import { resetPage, testQueryClient, withProviders } from '../lib/test-setup';
import { BatchOpDialog } from './batch-op-dialog';
import { forgetCodeSends } from './verification-code-step';

afterEach(() => {
  resetPage();
  forgetCodeSends();
  vi.useRealTimers();
});

async function translations(lng: 'en-US' | 'ru'): Promise<I18n> {
  const i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng,
    resources: { 'en-US': { miners: enMiners, errors: enErrors }, ru: { miners: ruMiners, errors: ruErrors } },
    ns: ['miners', 'errors'],
    defaultNS: 'miners',
    interpolation: { escapeValue: false },
  });
  return i18n;
}

interface User {
  email: string | null;
  mobile: string | null;
  areaCode: string;
}

/** The dialog of `op` for two miners; `answer` is what POST /api/minerv2/<op> answers (and the paths asked are kept). */
async function openDialog(op: MinerBatchOp, opts: { user?: User; lng?: 'en-US' | 'ru'; answer?: unknown; progress?: unknown } = {}) {
  const posted: string[] = [];
  const codesSent: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    const path = new URL(url, 'http://localhost').pathname;
    if (path === '/api/minerv2/sendCode') {
      codesSent.push(String(init?.body ?? ''));
      return new Response(JSON.stringify({ code: 0, msg: 'success', data: { channel: 'email', sentTo: 't***@example.com', expiresInSec: 600 } }));
    }
    if (path === `/api/minerv2/${op}`) {
      posted.push(String(init?.body ?? ''));
      return new Response(JSON.stringify({ code: 0, msg: 'success', data: opts.answer }));
    }
    if (path === '/api/minerv2/batchProgress') return new Response(JSON.stringify({ code: 0, msg: 'success', data: opts.progress }));
    return new Promise(() => undefined);
  });
  const client = testQueryClient();
  client.setQueryData(sessionKeys.currentUser, { id: 'u1', isAdmin: true, ...(opts.user ?? { email: 'tech@example.com', mobile: null, areaCode: '86' }) });
  const i18n = await translations(opts.lng ?? 'en-US');
  const ui: ReactElement = (
    <MemoryRouter>
      <BatchOpDialog
        op={op}
        agentKey="north-hall"
        targetLabel="Target: 2 selected miners"
        count={2}
        resolveTarget={async () => ({ ips: '10.0.0.1,10.0.0.2' })}
        example={{ ip: '10.0.0.1', sn: 'SN1' }}
        onClose={() => undefined}
      />
    </MemoryRouter>
  );
  render(withProviders(i18n, ui, client));
  return { posted, codesSent };
}

describe('number fields', () => {
  it('a manual fan speed emptied is required at its field, and nothing is sent (not fans at 0 %)', async () => {
    const { posted } = await openDialog('batchSetFans', { answer: { taskId: 't1', queued: 2, refused: [] } });
    fireEvent.click(screen.getByTestId('batch-field-fan-mode'));
    fireEvent.click(await screen.findByRole('option', { name: 'Manual' }));
    fireEvent.change(await screen.findByTestId('batch-field-percent'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('batch-dialog-run'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('an emptied hashrate percent is required too (not a silent 65 %)', async () => {
    const { posted } = await openDialog('batchAdjustHashRate');
    fireEvent.change(screen.getByTestId('batch-field-percent'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('batch-dialog-run'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(posted).toEqual([]);
  });
});

describe('verification code step', () => {
  it('without a code, says so at the field without asking the server', async () => {
    const { posted } = await openDialog('batchReset');
    fireEvent.click(screen.getByTestId('batch-dialog-run'));
    expect(await screen.findByText('Please enter the verification code')).toBeTruthy();
    expect(posted).toEqual([]);
  });

  it('e-mail bound, phone +86: e-mail chosen, SMS not offered, and why', async () => {
    await openDialog('batchReset', { user: { email: 'tech@example.com', mobile: '13800138000', areaCode: '86' } });
    const sms = screen.getByTestId('batch-code-channel').querySelector('input[value="sms"]') as HTMLInputElement;
    const email = screen.getByTestId('batch-code-channel').querySelector('input[value="email"]') as HTMLInputElement;
    expect(sms.disabled).toBe(true);
    expect(email.checked).toBe(true);
    expect(screen.getByTestId('batch-code-area86').textContent).toMatch(/area code 86 cannot receive the SMS code/);
    expect((screen.getByTestId('batch-code-send') as HTMLButtonElement).disabled).toBe(false);
  });

  it('only a +86 phone bound: bind an e-mail first, with a link to the user center', async () => {
    await openDialog('batchDelete', { user: { email: null, mobile: '13800138000', areaCode: '86' } });
    expect(screen.getByTestId('batch-code-unbound').textContent).toMatch(/bind an e-mail address in the user center first/);
    expect(screen.getByTestId('batch-code-bind-link').getAttribute('href')).toBe('/user/center');
    expect(screen.queryByTestId('batch-code-send')).toBeNull();
  });

  it('nothing bound: bind an e-mail or a phone first', async () => {
    await openDialog('batchSetPool', { user: { email: null, mobile: null, areaCode: '86' } });
    expect(screen.getByTestId('batch-code-unbound').textContent).toMatch(/Bind an e-mail address or a phone number in the user center first/);
  });

  it('the resend countdown continues when the dialog is closed and opened again within the minute', async () => {
    // Fake clock and intervals only: the queries and findBy* keep their real timeouts.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const first = await openDialog('batchReset');
    const send = () => screen.getByTestId('batch-code-send') as HTMLButtonElement;
    expect(send().textContent).toBe('Send code');
    fireEvent.click(send());
    await waitFor(() => expect(send().textContent).toBe('Resend in 60 s'));
    expect(first.codesSent).toEqual(['channel=email']);
    act(() => vi.advanceTimersByTime(20_000));
    expect(send().textContent).toBe('Resend in 40 s');

    // Closed (unmounted) and opened again 20 s after the send: still counting, the button off, where the code went.
    cleanup();
    const again = await openDialog('batchReset');
    expect(send().textContent).toBe('Resend in 40 s');
    expect(send().disabled).toBe(true);
    expect(screen.getByTestId('batch-code-sent').textContent).toBe('Code sent to t***@example.com');
    act(() => vi.advanceTimersByTime(39_000));
    expect(send().textContent).toBe('Resend in 1 s');
    act(() => vi.advanceTimersByTime(1_000));
    expect(send().textContent).toBe('Send code');
    expect(send().disabled).toBe(false);
    expect(again.codesSent).toEqual([]);
  });

  it('a phone outside area 86 only: SMS chosen', async () => {
    await openDialog('batchReset', { user: { email: null, mobile: '9161234567', areaCode: '7' } });
    const sms = screen.getByTestId('batch-code-channel').querySelector('input[value="sms"]') as HTMLInputElement;
    expect(sms.checked).toBe(true);
    expect(screen.queryByTestId('batch-code-area86')).toBeNull();
  });
});

describe('the result', () => {
  const progress = {
    taskId: '0b8c6a8e-5f6b-4b3c-9a53-0c7f4f9f0a11',
    op: 'batchSetFans',
    status: 'done',
    total: 2,
    done: 2,
    successes: [],
    failures: [
      { ip: '10.0.0.1', reason: 'unsupported-op: the Whatsminer API has no fan-speed setting' },
      { ip: '10.0.0.2', reason: 'unreachable: timeout' },
    ],
    createdAt: '2026-11-24T08:00:00Z',
    doneAt: '2026-11-24T08:00:05Z',
  };

  it('in Russian: the reasons translated, the agent\u2019s English detail kept out of the text (on hover only); no "0 refused"', async () => {
    await openDialog('batchSetFans', { lng: 'ru', answer: { taskId: progress.taskId, queued: 2, refused: [] }, progress });
    fireEvent.click(screen.getByTestId('batch-dialog-run'));
    const failures = await screen.findByTestId('batch-progress-failures');
    expect(failures.textContent).toContain('Не поддерживается этой прошивкой');
    expect(failures.textContent).toContain('Майнер недоступен: Майнер не ответил вовремя');
    expect(failures.textContent).not.toMatch(/Whatsminer API|timeout/);
    expect(failures.querySelector('td[title]')?.getAttribute('title')).toBe('the Whatsminer API has no fan-speed setting');
    expect(screen.getByTestId('batch-summary').textContent).toBe('В очереди майнеров: 2');
  });

  it('in English: the detail shows as the agent wrote it', async () => {
    await openDialog('batchSetFans', { answer: { taskId: progress.taskId, queued: 2, refused: [] }, progress });
    fireEvent.click(screen.getByTestId('batch-dialog-run'));
    const failures = await screen.findByTestId('batch-progress-failures');
    await waitFor(() => expect(failures.textContent).toContain('Not supported by this firmware: the Whatsminer API has no fan-speed setting'));
    expect(failures.textContent).toContain('Miner unreachable: timeout');
  });
});

describe('fields checked before anything is sent (walk 35)', () => {
  it('set pools with nothing filled: pool 1 URL, its worker and the code are said at once; a malformed pool 2 URL too', async () => {
    const { posted } = await openDialog('batchSetPool');
    fireEvent.change(screen.getByTestId('batch-field-pool2Url'), { target: { value: 'http//backup pool' } });
    fireEvent.click(screen.getByTestId('batch-dialog-run'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(screen.getByText('Enter the pool worker name')).toBeTruthy();
    expect(screen.getByText(/Enter a well-formed pool URL/)).toBeTruthy();
    expect(screen.getByText('Please enter the verification code')).toBeTruthy();
    expect(screen.getByTestId('batch-field-pool1Url').getAttribute('aria-invalid')).toBe('true');
    expect(posted).toEqual([]);
  });

  it('the first field in error is brought into view (on a phone it is above the screen, the Run button below)', async () => {
    const scrolled: Element[] = [];
    const original = Element.prototype.scrollIntoView;
    Element.prototype.scrollIntoView = function scrollIntoView(this: Element) {
      scrolled.push(this);
    };
    try {
      await openDialog('batchSetPool');
      fireEvent.change(screen.getByTestId('batch-field-pool1User'), { target: { value: 'rig7' } });
      fireEvent.click(screen.getByTestId('batch-dialog-run'));
      // The field with its label and message (pool 1's URL, the first in error; its worker is filled).
      await waitFor(() => expect(scrolled).toHaveLength(1));
      expect(scrolled[0]!.contains(screen.getByTestId('batch-field-pool1Url'))).toBe(true);
      expect(scrolled[0]!.textContent).toContain('Required');
    } finally {
      Element.prototype.scrollIntoView = original;
    }
  });

  it('firmware URL, customer and accident type: required at their fields, nothing sent', async () => {
    for (const [op, message] of [
      ['batchUpgrade', 'Required'],
      ['batchCustomer', 'Required'],
      ['batchAccident', 'Choose an accident type from the list'],
    ] as const) {
      const { posted } = await openDialog(op, { answer: { taskId: 't1', queued: 2, refused: [] } });
      if (op === 'batchUpgrade') fireEvent.change(screen.getByTestId('batch-code-input'), { target: { value: '123456' } });
      fireEvent.click(screen.getByTestId('batch-dialog-run'));
      expect(await screen.findByText(message), op).toBeTruthy();
      expect(posted, op).toEqual([]);
      cleanup();
    }
  });

  it('"no customer" needs no name: it is sent', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 0, msg: 'success', data: [] })));
    const { posted } = await openDialog('batchCustomer', { answer: { taskId: 't1', queued: 2, refused: [] } });
    fireEvent.click(screen.getByTestId('batch-field-customer'));
    fireEvent.click(await screen.findByRole('option', { name: "No customer (the farm's own)" }));
    fireEvent.click(screen.getByTestId('batch-dialog-run'));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toContain('clear=true');
  });
});

describe('a wrong code (walk 35)', () => {
  it('its message goes once another code is typed (it no longer describes what is in the field)', async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      const path = new URL(url, 'http://localhost').pathname;
      if (path === '/api/minerv2/batchReset') return new Response(JSON.stringify({ code: 1021, msg: 'The verification code is wrong or has expired', data: null }), { status: 400 });
      return new Promise(() => undefined);
    });
    const client = testQueryClient();
    client.setQueryData(sessionKeys.currentUser, { id: 'u1', isAdmin: true, email: 'tech@example.com', mobile: null, areaCode: '86' });
    render(
      withProviders(
        await translations('en-US'),
        <MemoryRouter>
          <BatchOpDialog op="batchReset" agentKey="north-hall" targetLabel="Target" count={2} resolveTarget={async () => ({ ips: '10.0.0.1' })} example={{ ip: '10.0.0.1', sn: '' }} onClose={() => undefined} />
        </MemoryRouter>,
        client,
      ),
    );
    fireEvent.change(screen.getByTestId('batch-code-input'), { target: { value: '111111' } });
    fireEvent.click(screen.getByTestId('batch-dialog-run'));
    expect(await screen.findByText('The verification code is wrong or has expired')).toBeTruthy();
    fireEvent.change(screen.getByTestId('batch-code-input'), { target: { value: '2' } });
    expect(screen.queryByText('The verification code is wrong or has expired')).toBeNull();
  });
});
