/** A miner's operation log: the suspicious-SSH alarm entries (raised by a scan, processed by a user) read in words. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { MinerOpLogRow } from '@shared/schemas/miner-records';
import { minersI18n, testQueryClient, withProviders } from '../lib/test-setup';
import { OperationLogCard } from './operation-log-card';

let i18n: I18n;
beforeAll(async () => {
  i18n = await minersI18n();
});
afterEach(() => vi.unstubAllGlobals());

const row = (action: string, detail: Record<string, unknown>, user: string | null): MinerOpLogRow => ({ at: '2026-11-28T10:00:00.000Z', action, kind: 'record', user, ok: null, reason: null, detail });

describe('operation log card', () => {
  it('names the alarm kinds a scan raised and the note of its processing', async () => {
    vi.stubGlobal('fetch', async () =>
      new Response(
        JSON.stringify({
          code: 0,
          msg: 'success',
          data: {
            list: [
              row('securityProcessed', { id: 'r1', kinds: ['ssh-login'], note: 'password changed' }, 'tech'),
              row('securityRaised', { id: 'r1', kinds: ['ssh-login', 'ssh-brute-force'] }, null),
            ],
            total: 2,
            curPage: 1,
            pageSize: 20,
          },
        }),
      ),
    );
    render(withProviders(i18n, <OperationLogCard agentKey="north-hall" ip="10.0.0.7" />, testQueryClient()));
    expect(await screen.findByText('SSH alarm raised')).toBeTruthy();
    expect(screen.getByText('SSH login, SSH password brute force')).toBeTruthy();
    expect(screen.getByText('SSH alarm processed')).toBeTruthy();
    expect(screen.getByText('password changed')).toBeTruthy();
  });
});
