/**
 * The farm's batch log: a table on a desk; on a phone a card per batch that opens its progress with one tap (the
 * eight-column table made a technician scroll sideways); loading, empty and failed states.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { BatchLogRow } from '@shared/schemas/batch-operations';
import { minersI18n, testQueryClient, withProviders } from '../lib/test-setup';
import { BatchLogDrawer } from './batch-log-drawer';

let i18n: I18n;
beforeAll(async () => {
  i18n = await minersI18n();
});
afterEach(() => vi.unstubAllGlobals());

const ROWS: BatchLogRow[] = [
  { taskId: 't2', op: 'batchReboot', user: 'tech', createdAt: '2026-11-28T10:00:00.000Z', doneAt: null, total: 10, done: 4, ok: 3, failed: 1, status: 'running' },
  { taskId: 't1', op: 'batchSetPool', user: null, createdAt: '2026-11-27T09:00:00.000Z', doneAt: '2026-11-27T09:01:00.000Z', total: 2, done: 2, ok: 2, failed: 0, status: 'done' },
];

/** Answers the log with `list`; any other request (a batch's progress) never answers. */
function answer(list: BatchLogRow[]) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(String(url));
    if (!String(url).includes('/api/log/batchList')) return new Promise(() => undefined);
    return new Response(JSON.stringify({ code: 0, msg: 'success', data: { list, total: list.length, curPage: 1, pageSize: 20 } }));
  });
  return asked;
}

function onPhone(run: () => Promise<void>) {
  const desktop = window.matchMedia;
  window.matchMedia = (query: string) => ({ ...desktop(query), matches: query.includes('max-width') });
  return run().finally(() => (window.matchMedia = desktop));
}

const drawer = () => render(withProviders(i18n, <BatchLogDrawer agentKey="north-hall" opened onClose={() => undefined} />, testQueryClient()));

describe('batch log drawer', () => {
  it('on a desk: the table with a row per batch', async () => {
    answer(ROWS);
    drawer();
    const table = await screen.findByTestId('batch-log-table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByText('4 / 10')).toBeTruthy();
    expect(screen.queryByTestId('batch-log-cards')).toBeNull();
  });

  it('on a phone: a card per batch with its operation, status, counts and a progress bar; a tap opens its progress', () =>
    onPhone(async () => {
      const asked = answer(ROWS);
      drawer();
      const cards = await screen.findAllByTestId('batch-log-card');
      expect(cards).toHaveLength(2);
      expect(screen.queryByTestId('batch-log-table')).toBeNull();
      const first = cards[0]!;
      expect(within(first).getByText('Running')).toBeTruthy();
      expect(first.textContent).toContain('tech');
      expect(within(first).getByTestId('batch-log-card-counts').textContent).toBe('Progress: 4 / 10Succeeded: 3Failed: 1');
      expect(within(first).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
      // No user recorded: no dangling separator after the time.
      expect(cards[1]!.textContent).not.toContain(' · ');
      fireEvent.click(first);
      expect(await screen.findByText('Batch progress')).toBeTruthy();
      await vi.waitFor(() => expect(asked.some((u) => u.includes('taskId=t2'))).toBe(true));
    }));

  it('says when there is no batch yet', async () => {
    answer([]);
    drawer();
    expect(await screen.findByText('No batch operations yet')).toBeTruthy();
  });

  it('shows it is loading, then a failed load with Retry (not "no batch yet"), and Retry loads it', async () => {
    let fail = true;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    vi.stubGlobal('fetch', async () => {
      await gate;
      if (fail) return new Response(JSON.stringify({ code: 500, msg: 'The database is not answering' }), { status: 500 });
      return new Response(JSON.stringify({ code: 0, msg: 'success', data: { list: ROWS, total: 2, curPage: 1, pageSize: 20 } }));
    });
    drawer();
    expect(await screen.findByTestId('batch-log-loading')).toBeTruthy();
    release();
    const alert = await screen.findByTestId('batch-log-error');
    expect(screen.queryByText('No batch operations yet')).toBeNull();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('batch-log-table')).toBeTruthy();
    expect(screen.queryByTestId('batch-log-error')).toBeNull();
  });
});
