/** The pool-config dialog: the check summary of an uploaded file (counts, invalid rows) and, after apply, the queued batches. */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import { minersI18n, testQueryClient, withProviders } from '../lib/test-setup';
import { PoolConfigFileDialog } from './pool-config-file-dialog';

let i18n: I18n;
beforeAll(async () => {
  i18n = await minersI18n();
});
afterEach(() => vi.unstubAllGlobals());

const envelope = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'success', data }));

describe('pool config file dialog', () => {
  it('shows the check, then applies with the code and lists the batches', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      const path = new URL(url, 'http://localhost').pathname;
      calls.push(path);
      if (path === '/api/minerv2/uploadPoolConfig')
        return envelope({
          fileId: 'f1',
          counts: { change: 3, same: 10, unknown: 1, invalid: 1 },
          groups: [
            { pools: [{ url: 'stratum+tcp://a.example:3333', user: 'a' }], count: 2 },
            { pools: [{ url: 'stratum+tcp://b.example:3333', user: 'b' }], count: 1 },
          ],
          invalid: [{ line: 7, ip: '10.0.0.9', field: 'pool1Url', message: 'pool address format incorrect' }],
          expiresAt: '2026-11-28T12:00:00Z',
        });
      if (path === '/api/minerv2/applyPoolConfig') {
        expect(String(init?.body)).toContain('123456');
        return envelope({
          batches: [
            { taskId: 't1', ips: 2, pool1Url: 'stratum+tcp://a.example:3333' },
            { taskId: 't2', ips: 1, pool1Url: 'stratum+tcp://b.example:3333' },
          ],
          refused: [],
        });
      }
      return new Promise(() => undefined);
    });
    const { container } = render(
      withProviders(i18n, <PoolConfigFileDialog agentKey="north-hall" selectedCount={0} resolveScope={() => ({})} onClose={() => undefined} onOpenLog={() => undefined} />, testQueryClient()),
    );
    expect((await screen.findByTestId('pool-config-download')).textContent).toBe('Download current configuration (whole farm)');
    const input = container.ownerDocument.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'pools.xlsx')] } });
    await screen.findByTestId('pool-config-summary');
    expect(screen.getByTestId('pool-config-count-change').textContent).toContain('3');
    expect(screen.getByTestId('pool-config-invalid').textContent).toContain('Pool 1 URL: pool address format incorrect');
    expect(screen.getByTestId('pool-config-apply').hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByTestId('batch-code-input'), { target: { value: '123456' } });
    fireEvent.click(screen.getByTestId('pool-config-apply'));
    const batches = await screen.findAllByTestId('pool-config-batch');
    expect(batches.map((b) => b.textContent)).toEqual(['Set pools2 minersstratum+tcp://a.example:3333', 'Set pools1 minerstratum+tcp://b.example:3333']);
    expect(calls).toContain('/api/minerv2/applyPoolConfig');
  });
});

describe('pool config file dialog on a phone (walk 35)', () => {
  it('the download button keeps a finger\u2019s height when its label fits one line (Chinese: it was 28 px)', async () => {
    vi.stubGlobal('fetch', () => new Promise(() => undefined));
    const desktop = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...desktop(query), matches: query.includes('max-width') });
    try {
      render(withProviders(i18n, <PoolConfigFileDialog agentKey="north-hall" selectedCount={3} resolveScope={() => ({ ips: ['10.0.0.1'] })} onClose={() => undefined} onOpenLog={() => undefined} />, testQueryClient()));
      const button = await screen.findByTestId('pool-config-download');
      expect(button.style.minHeight).toBe('calc(2.25rem * var(--mantine-scale))');
    } finally {
      window.matchMedia = desktop;
    }
  });
});
