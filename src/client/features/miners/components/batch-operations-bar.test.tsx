import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { sessionKeys } from '@client/lib/session-api';
import type { MinerRow } from '@shared/schemas/miner';
import { BATCH_OP_GROUPS } from '../lib/batch-target';
import { EMPTY_SELECTION, applyTableKeys } from '../lib/miner-selection';
import { BatchOperationsBar } from './batch-operations-bar';
import { minersI18n, testQueryClient, withProviders } from '../lib/test-setup';

let i18n: I18n;

beforeAll(async () => {
  i18n = await minersI18n();
});

afterEach(() => vi.unstubAllGlobals());

/** The administrator may operate (the bar shows for the operations key). */
function adminClient() {
  const client = testQueryClient();
  client.setQueryData(sessionKeys.currentUser, { isAdmin: true });
  return client;
}
const ROWS = [{ ip: '10.0.0.1', sn: 'SN1' }, { ip: '10.0.0.2', sn: 'SN2' }] as MinerRow[];
const TWO_SELECTED = applyTableKeys(EMPTY_SELECTION, ['10.0.0.1', '10.0.0.2'], ROWS);

describe('batch operations menu', () => {
  it('keeps its dropdown within the window, scrolling inside, with every operation in it', async () => {
    // The administrator may operate; the batch log's and the menus' requests never answer.
    vi.stubGlobal('fetch', () => new Promise(() => undefined));
    render(withProviders(i18n, <BatchOperationsBar agentKey="north-hall" selection={TWO_SELECTED} count={2} />, adminClient()));
    fireEvent.click(screen.getByTestId('batch-menu'));
    const dropdown = await screen.findByTestId('batch-menu-dropdown');
    expect(dropdown.style.overflowY).toBe('auto');
    // floating-ui's size middleware bounds it (jsdom measures no room: the floor applies).
    await waitFor(() => expect(dropdown.style.maxHeight).toMatch(/^\d+px$/));
    for (const op of BATCH_OP_GROUPS.flatMap((g) => g.ops)) expect(dropdown.querySelector(`[data-testid="batch-op-${op}"]`), op).not.toBeNull();
  });

  it('says an uploaded IP list, not the selected rows, is what operations use', async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      if (new URL(url, 'http://localhost').pathname === '/api/minerv2/uploadIpList') {
        return new Response(JSON.stringify({ code: 0, msg: 'success', data: { fileId: 'f1', count: 3, matched: 3, unmatched: [], invalid: [], expiresAt: '2026-11-24T08:00:00Z' } }));
      }
      return new Promise(() => undefined);
    });
    const client = adminClient();
    const bar = (count: number) => withProviders(i18n, <BatchOperationsBar agentKey="north-hall" selection={count ? TWO_SELECTED : EMPTY_SELECTION} count={count} />, client);
    const { container, rerender } = render(bar(0));
    const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['10.0.0.5\n10.0.0.6\n10.0.0.7\n'], 'rack-7.txt', { type: 'text/plain' })] } });
    await screen.findByTestId('batch-uploaded');
    expect(screen.queryByTestId('batch-upload-overrides')).toBeNull();
    rerender(bar(2));
    expect(screen.getByTestId('batch-upload-overrides').textContent).toBe('Operations use this list, not the 2 selected');
  });

  it('an uploaded list as the target: the dialog says how many miners it reaches, not only its lines (walk 35)', async () => {
    vi.stubGlobal('fetch', async (url: string) => {
      if (new URL(url, 'http://localhost').pathname === '/api/minerv2/uploadIpList') {
        return new Response(JSON.stringify({ code: 0, msg: 'success', data: { fileId: 'f1', count: 3, matched: 2, unmatched: ['10.9.9.9'], invalid: [], expiresAt: '2026-11-24T08:00:00Z' } }));
      }
      return new Promise(() => undefined);
    });
    const { container } = render(withProviders(i18n, <BatchOperationsBar agentKey="north-hall" selection={EMPTY_SELECTION} count={0} />, adminClient()));
    const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['10.0.0.5\n10.0.0.6\n10.9.9.9\n'], 'HALL_B_NIGHT_SHIFT_ROWS_1_TO_40.txt', { type: 'text/plain' })] } });
    await screen.findByTestId('batch-uploaded');
    fireEvent.click(screen.getByTestId('batch-menu'));
    fireEvent.click(await screen.findByTestId('batch-op-batchReboot'));
    const target = await screen.findByTestId('batch-target');
    expect(target.textContent).toBe('Target: 2 miners from the uploaded list HALL_B_NIGHT_SHIFT_ROWS_1_TO_40.txt (3 IPs)');
    // One long word: it wraps within a phone's width instead of running past the dialog's edge.
    expect(target.style.overflowWrap).toBe('anywhere');
  });

  it('lets the selection go once its miners are taken off shelf (no longer on the list), not after other operations', async () => {
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      const path = new URL(url, 'http://localhost').pathname;
      if (path === '/api/minerv2/batchOffline' || path === '/api/minerv2/batchReboot') {
        sent.push(path);
        return new Response(JSON.stringify({ code: 0, msg: 'success', data: { taskId: `t${sent.length}`, queued: 2, refused: [] } }));
      }
      return new Promise(() => undefined);
    });
    const onLeftList = vi.fn();
    render(withProviders(i18n, <BatchOperationsBar agentKey="north-hall" selection={TWO_SELECTED} count={2} onLeftList={onLeftList} />, adminClient()));
    for (const op of ['batchReboot', 'batchOffline']) {
      fireEvent.click(screen.getByTestId('batch-menu'));
      fireEvent.click(await screen.findByTestId(`batch-op-${op}`));
      fireEvent.click(await screen.findByTestId('batch-dialog-run'));
      await waitFor(() => expect(sent).toHaveLength(op === 'batchReboot' ? 1 : 2));
      await waitFor(() => expect(screen.getAllByTestId('batch-dialog-close').length).toBeGreaterThan(0));
      if (op === 'batchReboot') expect(onLeftList).not.toHaveBeenCalled();
      fireEvent.click(screen.getAllByTestId('batch-dialog-close')[0]!);
      await waitFor(() => expect(screen.queryByTestId('batch-dialog')).toBeNull());
    }
    expect(onLeftList).toHaveBeenCalledTimes(1);
  });
});
