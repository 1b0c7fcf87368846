import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { MinerBatchOp } from '@shared/schemas/batch-operations';
import { type BatchParams, EMPTY_POOL_FORM, type PoolForm } from '../lib/batch-target';
import { minersI18n, resetPage, withProviders } from '../lib/test-setup';
import { BatchOpFields } from './batch-op-fields';

let i18n: I18n;
beforeAll(async () => {
  i18n = await minersI18n();
});
afterEach(resetPage);

/** Renders one op's fields against stubbed option lists; returns what the fields reported and the paths asked for. */
function renderFields(op: MinerBatchOp) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    const u = new URL(url, 'http://localhost');
    asked.push(`${u.pathname}?${u.searchParams.toString()}`);
    const data =
      u.pathname === '/api/options/customer'
        ? [
            { text: 'Acme Hosting', value: '11' },
            { text: 'Beta Mining', value: '12' },
          ]
        : [
            { text: 'Missing chip', value: 'missing-chip' },
            { text: 'Power failure', value: 'power-failure' },
          ];
    return new Response(JSON.stringify({ code: 0, msg: 'success', data }));
  });
  const changes: [string, unknown][] = [];
  render(withProviders(i18n, <BatchOpFields op={op} agentKey="north-hall" values={{}} onChange={(k, v) => changes.push([k, v])} errors={{}} example={{ ip: '10.0.0.1', sn: 'SN1' }} />));
  return { asked, changes };
}

describe('batch op fields', () => {
  it('mark accident: a type from /api/options/accidentList, its code sent', async () => {
    const { asked, changes } = renderFields('batchAccident');
    fireEvent.click(screen.getByTestId('batch-field-accident'));
    fireEvent.click(await screen.findByRole('option', { name: 'Power failure' }));
    expect(changes).toEqual([['accident', 'power-failure']]);
    expect(asked).toEqual(['/api/options/accidentList?agentKey=north-hall']);
  });

  it("change customer: a customer of the farm from /api/options/customer, its name sent (marks keep the customer's name)", async () => {
    const { asked, changes } = renderFields('batchCustomer');
    fireEvent.click(screen.getByTestId('batch-field-customer'));
    fireEvent.click(await screen.findByRole('option', { name: 'Beta Mining' }));
    expect(changes).toEqual([
      ['clear', false],
      ['customer', 'Beta Mining'],
    ]);
    expect(asked).toEqual(['/api/options/customer?agentKey=north-hall']);
  });

  it('change customer: "No customer" first, which clears it', async () => {
    const { changes } = renderFields('batchCustomer');
    fireEvent.click(screen.getByTestId('batch-field-customer'));
    fireEvent.click(await screen.findByRole('option', { name: "No customer (the farm's own)" }));
    expect(changes).toEqual([
      ['clear', true],
      ['customer', ''],
    ]);
  });
});

describe('set pools: filled from what the farm keeps', () => {
  const GROUPS = [
    {
      id: 'g-new',
      name: 'Group New',
      customer: 'Acme Hosting',
      pools: [
        { url: 'stratum+tcp://btc.hashfield-pool.com:3333', user: 'acme.rig' },
        { url: 'stratum+ssl://backup.hashfield-pool.com:443', user: 'hfarm02' },
      ],
    },
    { id: 'g-one', name: 'Single', customer: null, pools: [{ url: 'stratum+tcp://one.example:1', user: 'solo' }] },
  ];
  const SUBS = [
    { id: 's1', accountName: 'hfarm01', poolName: 'Private pool', coinType: 'BTC' },
    { id: 's2', accountName: 'zeta_1', poolName: 'ViaBTC', coinType: 'LTC' },
  ];

  /** The set-pool fields with their state kept, as the dialog keeps it; `asked` lists the paths asked for. */
  function renderSetPool(initial: Partial<PoolForm> = {}) {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      const u = new URL(url, 'http://localhost');
      asked.push(`${u.pathname}?${u.searchParams.toString()}`);
      const data = u.pathname === '/api/minerv2/poolQuery' ? GROUPS : u.pathname === '/api/minerv2/poolSubAccountQuery' ? SUBS : [];
      return new Response(JSON.stringify({ code: 0, msg: 'success', data }));
    });
    function Stateful() {
      const [values, setValues] = useState<BatchParams>({ ...EMPTY_POOL_FORM, ...initial });
      return <BatchOpFields op="batchSetPool" agentKey="north-hall" values={values} onChange={(k, v) => setValues((s) => ({ ...s, [k]: v }))} errors={{}} example={{ ip: '10.0.0.1', sn: 'SN1' }} />;
    }
    render(withProviders(i18n, <Stateful />));
    const value = (id: string) => (screen.getByTestId(id) as HTMLInputElement).value;
    return { asked, value };
  }

  it("a pool group fills pools 1–3 with its URLs and workers, clears the pool it lacks, and the worker example follows", async () => {
    const { asked, value } = renderSetPool({ pool3Url: 'stratum+tcp://stale.example:1', pool3User: 'stale', pool3Password: 'p3', workerSuffix: 'ip' });
    fireEvent.click(screen.getByTestId('batch-field-poolGroup'));
    fireEvent.click(await screen.findByRole('option', { name: /Group New/ }));
    expect([value('batch-field-pool1Url'), value('batch-field-pool1User'), value('batch-field-pool2Url'), value('batch-field-pool2User')]).toEqual([
      'stratum+tcp://btc.hashfield-pool.com:3333',
      'acme.rig',
      'stratum+ssl://backup.hashfield-pool.com:443',
      'hfarm02',
    ]);
    expect([value('batch-field-pool3Url'), value('batch-field-pool3User')]).toEqual(['', '']);
    expect(screen.getByTestId('batch-worker-preview').textContent).toBe('Example worker: acme.rig.10x0x0x1');
    expect(value('batch-field-poolGroup')).toBe('Group New · Acme Hosting');
    // Changing a filled pool makes the form the operator's own: the group is no longer shown as chosen.
    fireEvent.change(screen.getByTestId('batch-field-pool2User'), { target: { value: 'someone' } });
    expect(value('batch-field-poolGroup')).toBe('');
    expect(asked).toEqual(['/api/minerv2/poolQuery?agentKey=north-hall']);
  });

  it("a sub-account picked next to a pool's worker fills that worker only; the list is asked for when opened", async () => {
    const { asked, value } = renderSetPool({ pool1User: 'typed' });
    expect(asked.some((a) => a.startsWith('/api/minerv2/poolSubAccountQuery'))).toBe(false);
    fireEvent.click(screen.getByTestId('batch-pool-2-pick'));
    fireEvent.click(await screen.findByRole('option', { name: /zeta_1/ }));
    expect([value('batch-field-pool1User'), value('batch-field-pool2User'), value('batch-field-pool3User')]).toEqual(['typed', 'zeta_1', '']);
    expect(asked).toContain('/api/minerv2/poolSubAccountQuery?agentKey=north-hall');
  });
});

describe('what an operator reads before running (walk 35)', () => {
  it('the worker example before a worker is typed names it in the interface language, not an English "worker"', async () => {
    const ruI18n = await minersI18n();
    ruI18n.addResourceBundle('ru', 'miners', (await import('@locales/ru/miners.json')).default);
    await ruI18n.changeLanguage('ru');
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 0, msg: 'success', data: [] })));
    render(withProviders(ruI18n, <BatchOpFields op="batchSetPool" agentKey="north-hall" values={{ ...EMPTY_POOL_FORM, workerSuffix: 'ip' }} onChange={() => undefined} errors={{}} example={{ ip: '10.0.0.1', sn: 'SN1' }} />));
    expect(screen.getByTestId('batch-worker-preview').textContent).toBe('Пример воркера: <воркер>.10x0x0x1');
  });

  it.each([
    ['batchAdjustHashRate', /Only Antminer S21 and T21 on stock firmware from 2024-05-20/],
    ['batchSetFrequency', /Only the Antminer S19 family/],
    ['batchChangePowerPercent', /S19 XP Hyd included\) and T21 on stock firmware built after September 2024/],
  ] as const)('%s says which miners take it (the others are refused)', (op, text) => {
    renderFields(op);
    expect(screen.getByText(text)).toBeTruthy();
  });

  it('firmware upgrade on a phone: "keep settings" is a switch of a finger\u2019s size', () => {
    const desktop = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...desktop(query), matches: query.includes('max-width') });
    try {
      renderFields('batchUpgrade');
      const root = screen.getByTestId('batch-field-keepSettings').closest('.mantine-Switch-root') as HTMLElement;
      expect(root.getAttribute('style')).toContain('--switch-height: var(--switch-height-lg)');
    } finally {
      window.matchMedia = desktop;
    }
  });
});
