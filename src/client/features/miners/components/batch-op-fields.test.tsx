import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n as I18n } from 'i18next';
import type { MinerBatchOp } from '@shared/schemas/batch-operations';
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
