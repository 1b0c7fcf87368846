/** Steps and reads around a miner's card shared by the offline e2e tests (field app and console). */
import type { Page } from 'playwright-core';
import type { MinerNote } from '../../src/shared/schemas/miner-notes';
import type { MinerSyncRow, SyncPage } from '../../src/shared/schemas/sync';
import type { ApiSession } from './e2e-browser';

/**
 * The farm's miner at `ip` as the delta sync serves it (its id opens the card). A feed page leaves out a row whose
 * version moved past the page's upper bound while the page was read (a write committed between the bound's read and
 * the rows'; the next page brings it): the page is asked again, for up to `timeout` ms, before the miner counts as missing.
 */
export async function minerRow(api: ApiSession, agentKey: string, ip: string, timeout = 10_000): Promise<MinerSyncRow> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const page = await api.get<SyncPage<MinerSyncRow>>('/api/sync/miners', { agentKey, limit: 5000 });
    const row = page.rows.find((r) => r.ip === ip);
    if (row) return row;
    if (Date.now() > deadline) throw new Error(`miner ${ip} not found`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The notes the server has for the miner at `ip`. */
export async function notesOf(api: ApiSession, agentKey: string, ip: string): Promise<MinerNote[]> {
  return (await api.get<{ list: MinerNote[]; total: number }>('/api/miner/notes', { agentKey, ip, pageSize: 100 })).list;
}

/** Adds a note from the open miner card (queued in the outbox when the server does not answer). */
export async function addNote(page: Page, text: string): Promise<void> {
  await page.getByTestId('miner-add-note').click();
  await page.getByTestId('miner-note-text').fill(text);
  await page.getByTestId('miner-note-save').click();
  await page.getByTestId('miner-note-dialog').waitFor({ state: 'hidden' });
}
