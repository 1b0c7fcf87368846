import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { sessionKeys } from '@client/lib/session-api';
import type { MinerRow } from '@shared/schemas/miner';
import { BATCH_OP_GROUPS } from '../lib/batch-target';
import { EMPTY_SELECTION, applyTableKeys } from '../lib/miner-selection';
import { BatchOperationsBar } from './batch-operations-bar';
import { minersI18n } from '../lib/test-setup';

let i18n: I18n;

beforeAll(async () => {
  i18n = await minersI18n();
});

afterEach(() => vi.unstubAllGlobals());

describe('batch operations menu', () => {
  it('keeps its dropdown within the window, scrolling inside, with every operation in it', async () => {
    // The administrator may operate; the batch log's and the menus' requests never answer.
    vi.stubGlobal('fetch', () => new Promise(() => undefined));
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(sessionKeys.currentUser, { isAdmin: true });
    const rows = [{ ip: '10.0.0.1', sn: 'SN1' }, { ip: '10.0.0.2', sn: 'SN2' }] as MinerRow[];
    const selection = applyTableKeys(EMPTY_SELECTION, ['10.0.0.1', '10.0.0.2'], rows);
    render(
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={client}>
          <MantineProvider env="test">
            <BatchOperationsBar agentKey="north-hall" selection={selection} count={2} />
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    fireEvent.click(screen.getByTestId('batch-menu'));
    const dropdown = await screen.findByTestId('batch-menu-dropdown');
    expect(dropdown.style.overflowY).toBe('auto');
    // floating-ui's size middleware bounds it (jsdom measures no room: the floor applies).
    await waitFor(() => expect(dropdown.style.maxHeight).toMatch(/^\d+px$/));
    for (const op of BATCH_OP_GROUPS.flatMap((g) => g.ops)) expect(dropdown.querySelector(`[data-testid="batch-op-${op}"]`), op).not.toBeNull();
  });
});
