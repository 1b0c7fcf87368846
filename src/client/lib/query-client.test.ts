import { onlineManager, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportNetworkFailure, reportServerAnswer, resetConnectivityForTests } from './offline/connectivity';
import { createQueryClient } from './query-client';

afterEach(() => {
  resetConnectivityForTests();
  onlineManager.setOnline(true);
});

describe('query client and connectivity', () => {
  it("TanStack Query's online state is the effective connectivity (the server answering), not navigator.onLine alone", () => {
    createQueryClient();
    expect(navigator.onLine).toBe(true);
    expect(onlineManager.isOnline()).toBe(true);
    reportNetworkFailure();
    expect(onlineManager.isOnline()).toBe(false);
    reportServerAnswer();
    expect(onlineManager.isOnline()).toBe(true);
  });

  it('a query that failed while the server did not answer waits, then succeeds as soon as the server answers again', async () => {
    const client = createQueryClient();
    client.mount(); // as QueryClientProvider does: the client listens to the onlineManager
    let up = false;
    const queryFn = vi.fn(async () => {
      if (!up) {
        reportNetworkFailure();
        throw new TypeError('Failed to fetch');
      }
      return 'answer';
    });
    const observer = new QueryObserver(client, { queryKey: ['reachability'], queryFn, retryDelay: 1 });
    const stop = observer.subscribe(() => undefined);
    try {
      await vi.waitFor(() => expect(observer.getCurrentResult().fetchStatus).toBe('paused'));
      expect(queryFn).toHaveBeenCalledTimes(1);
      up = true;
      reportServerAnswer();
      await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('answer'));
      expect(queryFn).toHaveBeenCalledTimes(2);
    } finally {
      stop();
      client.clear();
      client.unmount();
    }
  });
});
