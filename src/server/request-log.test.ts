import { describe, expect, it } from 'vitest';
import { urlForLog } from './request-log';

describe('urlForLog', () => {
  it('masks query values except the page-identifying ones, keeping the names', () => {
    const url = '/api/subAccountV2/testObserverUrl?agentKey=farm-a&observerUrl=https%3A%2F%2Fpool.example%2Fobserver%3Faccess_key%3DSECRET1&page=2';
    const logged = urlForLog(url);
    expect(logged).toBe('/api/subAccountV2/testObserverUrl?agentKey=farm-a&observerUrl=***&page=2');
    expect(logged).not.toContain('SECRET1');
  });

  it('leaves a URL without a query as it is', () => {
    expect(urlForLog('/api/miner/list')).toBe('/api/miner/list');
  });
});
