import type { SimMiner } from '../devices/sim-miner';

/** Pool-side view of a sub-account: what a pool's observer link would report for `<account>.*` workers. */

export interface ObserverReport {
  status: 0 | 1;
  account: string;
  coin: string;
  /** hashrate in `unit` (what the product calls hashP) */
  hashP: number;
  hashrate: number;
  unit: 'GH/s' | 'TH/s' | 'PH/s' | 'EH/s';
  hashrateGhs: number;
  hashrate1hGhs: number;
  hashrate24hGhs: number;
  workers: { total: number; active: number; inactive: number };
  updatedAt: string;
}

const SUPPORTED_COINS = new Set(['BTC', 'BCH']);

export function scaleHashrate(ghs: number): { value: number; unit: ObserverReport['unit'] } {
  if (ghs >= 1e9) return { value: Math.round((ghs / 1e9) * 1000) / 1000, unit: 'EH/s' };
  if (ghs >= 1e6) return { value: Math.round((ghs / 1e6) * 1000) / 1000, unit: 'PH/s' };
  if (ghs >= 1e3) return { value: Math.round((ghs / 1e3) * 100) / 100, unit: 'TH/s' };
  return { value: Math.round(ghs * 100) / 100, unit: 'GH/s' };
}

/**
 * Sum the hashrate of the miners whose active pool user is `<account>.<worker>`. Returns null for an unknown
 * account or coin (the observer link is wrong).
 */
export function observe(miners: readonly SimMiner[], knownAccounts: ReadonlySet<string>, account: string, coin: string, now: number): ObserverReport | null {
  const c = coin.toUpperCase();
  if (!SUPPORTED_COINS.has(c) || !knownAccounts.has(account)) return null;
  const prefix = `${account}.`;
  let ghs = 0;
  let h1 = 0;
  let h24 = 0;
  let total = 0;
  let active = 0;
  for (const m of miners) {
    const idx = m.activePool;
    const pool = idx >= 0 ? m.pools[idx] : undefined;
    if (!pool || !pool.user.startsWith(prefix)) continue;
    total++;
    if (!m.mining) continue;
    const rate = m.hashrateGhs;
    if (rate <= 0) continue;
    active++;
    const av = m.averages;
    ghs += rate;
    h1 += av.m30;
    h24 += av.av;
  }
  const s = scaleHashrate(ghs);
  return {
    status: 0, account, coin: c, hashP: s.value, hashrate: s.value, unit: s.unit,
    hashrateGhs: Math.round(ghs * 100) / 100, hashrate1hGhs: Math.round(h1 * 100) / 100, hashrate24hGhs: Math.round(h24 * 100) / 100,
    workers: { total, active, inactive: total - active }, updatedAt: new Date(now).toISOString(),
  };
}

export function observerHtml(r: ObserverReport): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Observer ${r.account}</title></head><body>`
    + `<h1>${r.account} (${r.coin})</h1><p>Hashrate: <span id="hashrate" data-unit="${r.unit}">${r.hashP}</span> ${r.unit}</p>`
    + `<p>Workers: ${r.workers.active} active / ${r.workers.total}</p><p>Updated ${r.updatedAt}</p></body></html>`;
}
