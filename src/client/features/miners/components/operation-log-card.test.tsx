/**
 * A miner's operation log: the suspicious-SSH alarm entries (raised by a scan, processed by a user) and the batch
 * operations' parameters and failure reasons read in words, not as the server's keys and codes.
 */
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
const batchRow = (action: string, detail: Record<string, unknown>, ok: boolean, reason: string | null = null): MinerOpLogRow => ({ ...row(action, detail, 'tech'), kind: 'batch', ok, reason });

function answer(list: MinerOpLogRow[]) {
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 0, msg: 'success', data: { list, total: list.length, curPage: 1, pageSize: 20 } })));
}

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

  it('says what a batch operation set, in words, and why it failed', async () => {
    answer([
      batchRow('batchChangeWorkMode', { mode: 'sleep' }, true),
      batchRow('batchSetFans', { mode: 'manual', percent: 60 }, true),
      batchRow('batchSetFrequency', { freqMhz: 1500 }, true),
      batchRow('batchChangePowerPercent', { percent: 80 }, false, 'offline'),
      batchRow('batchCustomer', {}, true),
      batchRow('batchSetPool', { pools: ['stratum+tcp://a.example:3333', '', ''] }, false, 'unreachable: timeout'),
      batchRow('batchBlink', { light: 'off' }, true),
    ]);
    render(withProviders(i18n, <OperationLogCard agentKey="north-hall" ip="10.0.0.7" />, testQueryClient()));
    expect(await screen.findByText('Work mode: Sleep')).toBeTruthy();
    expect(screen.getByText('Fan mode: Manual; Fan speed: 60%')).toBeTruthy();
    expect(screen.getByText('Frequency: 1,500 MHz')).toBeTruthy();
    expect(screen.getByText('Power: 80%')).toBeTruthy();
    expect(screen.getByText('Failed: Offline')).toBeTruthy();
    expect(screen.getByText("No customer (the farm's own)")).toBeTruthy();
    expect(screen.getByText('Pools: stratum+tcp://a.example:3333')).toBeTruthy();
    expect(screen.getByText('Failed: Miner unreachable: timeout')).toBeTruthy();
    expect(screen.getByText('Locate light off')).toBeTruthy();
    expect(screen.queryByText(/mode: sleep/)).toBeNull();
  });
});
