import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { getAgentKey, setAgentKey } from '@client/lib/agent-key';
import { sessionKeys } from '@client/lib/session-api';
import { useFarmAutoSelect } from './session-gate';

afterEach(() => {
  vi.unstubAllGlobals();
  setAgentKey(null);
});

const options = (...keys: string[]) => keys.map((k) => ({ value: k, text: k }));

function withList(cached: { value: string; text: string }[], fresh: Promise<Response>) {
  vi.stubGlobal('fetch', () => fresh);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // The list restored from the persisted cache (older than the tab's farm).
  client.setQueryData(sessionKeys.farms, cached, { updatedAt: Date.now() - 3_600_000 });
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const answer = (data: unknown) => new Response(JSON.stringify({ code: 0, msg: 'success', data }));

describe('farm selection after a reload', () => {
  it("keeps the tab's farm that a restored list predates, once the fresh list has it", async () => {
    setAgentKey('power-1');
    let resolve: (r: Response) => void = () => undefined;
    const wrapper = withList(options('east-1', 'west-1'), new Promise<Response>((r) => (resolve = r)));
    renderHook(() => useFarmAutoSelect(true), { wrapper });
    await new Promise((r) => setTimeout(r, 50));
    expect(getAgentKey()).toBe('power-1'); // not switched to east-1 while the list is fetched again
    resolve(answer(options('east-1', 'power-1', 'west-1')));
    await new Promise((r) => setTimeout(r, 50));
    expect(getAgentKey()).toBe('power-1');
  });

  it('switches away from a farm the fresh list does not have (deleted, or taken from the user)', async () => {
    setAgentKey('gone-1');
    const wrapper = withList(options('east-1', 'gone-1'), Promise.resolve(answer(options('east-1'))));
    renderHook(() => useFarmAutoSelect(true), { wrapper });
    await waitFor(() => expect(getAgentKey()).toBe('east-1'));
  });
});
