import http from 'node:http';
import type { SimMiner } from './devices/sim-miner';
import type { FaultProcess } from './faults';
import { FAULT_KINDS, NET_QUIRKS, OFFLINE_ANSWERS, type FaultKind, type NetQuirk, type OfflineAnswer, type SimEnv } from './sim-types';
import { observe, observerHtml } from './services/pool-observer';
import { tariffAt } from './services/tariff';

/** Control API for tests and demos (127.0.0.1 only): inspect miners, inject faults/quirks, observer and tariff. */

export interface ControlContext {
  miners: readonly SimMiner[];
  lookup(ip: string): SimMiner | undefined;
  faults: FaultProcess;
  accounts: ReadonlySet<string>;
  env: SimEnv;
}

function send(res: http.ServerResponse, status: number, body: unknown, contentType = 'application/json'): void {
  const text = contentType === 'application/json' ? JSON.stringify(body) : String(body);
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > 256 * 1024) return null;
    chunks.push(b);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (!text) return {};
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function fleetSummary(miners: readonly SimMiner[]): Record<string, unknown> {
  const byState: Record<string, number> = {};
  const byFamily: Record<string, number> = {};
  const byFault: Record<string, number> = {};
  for (const m of miners) {
    byState[m.state] = (byState[m.state] ?? 0) + 1;
    byFamily[m.family] = (byFamily[m.family] ?? 0) + 1;
    for (const f of m.activeFaults) byFault[f] = (byFault[f] ?? 0) + 1;
  }
  return { total: miners.length, byState, byFamily, byFault };
}

export function createControlServer(ctx: ControlContext): http.Server {
  return http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://control');
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      const method = req.method ?? 'GET';
      const now = ctx.env.now();

      if (method === 'GET' && url.pathname === '/fleet') return send(res, 200, fleetSummary(ctx.miners));
      if (method === 'GET' && url.pathname === '/tariff') {
        const at = url.searchParams.get('at');
        const atMs = at ? Date.parse(at) : now;
        if (!Number.isFinite(atMs)) return send(res, 400, { error: 'invalid at' });
        return send(res, 200, tariffAt(ctx.env.seed, atMs));
      }
      if (method === 'GET' && parts[0] === 'observer' && parts[1]) {
        const report = observe(ctx.miners, ctx.accounts, parts[1], url.searchParams.get('coin') ?? 'BTC', now);
        if (!report) return send(res, 404, { status: 1, msg: 'account or coin not found' });
        const wantsHtml = url.searchParams.get('format') === 'html' || (/text\/html/.test(req.headers.accept ?? '') && !/application\/json/.test(req.headers.accept ?? ''));
        return wantsHtml ? send(res, 200, observerHtml(report), 'text/html; charset=utf-8') : send(res, 200, report);
      }
      if (method === 'GET' && url.pathname === '/faults/rates') return send(res, 200, ctx.faults.rates);
      if (method === 'POST' && url.pathname === '/faults/rates') {
        const body = await readJson(req);
        if (!body) return send(res, 400, { error: 'invalid JSON' });
        const unknown = Object.keys(body).filter((k) => !FAULT_KINDS.includes(k as FaultKind));
        if (unknown.length) return send(res, 400, { error: `unknown fault kinds: ${unknown.join(', ')}` });
        ctx.faults.setRates(body as Partial<Record<FaultKind, number>>);
        return send(res, 200, ctx.faults.rates);
      }
      if (method === 'GET' && url.pathname === '/miners') {
        const limit = Math.max(1, Math.min(1000, Number(url.searchParams.get('limit') ?? 100) || 100));
        const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
        return send(res, 200, { total: ctx.miners.length, limit, offset, items: ctx.miners.slice(offset, offset + limit).map((m) => m.snapshot()) });
      }
      if (parts[0] === 'miners' && parts[1]) {
        const m = ctx.lookup(parts[1]);
        if (!m) return send(res, 404, { error: 'no such miner' });
        const action = parts[2];
        if (method === 'GET' && !action) return send(res, 200, m.snapshot());
        if (method !== 'POST' || !action) return send(res, 405, { error: 'method not allowed' });
        const body = await readJson(req);
        if (!body) return send(res, 400, { error: 'invalid JSON' });
        switch (action) {
          case 'fault': {
            const kind = body.kind as FaultKind;
            if (!FAULT_KINDS.includes(kind)) return send(res, 400, { error: `kind must be one of ${FAULT_KINDS.join(', ')}` });
            // offline only: `answer` says how it looks from the network while offline (silent = powered off; reset)
            const answer = body.answer as OfflineAnswer | undefined;
            if (answer !== undefined && (kind !== 'offline' || !OFFLINE_ANSWERS.includes(answer))) {
              return send(res, 400, { error: `answer is for kind offline only, one of ${OFFLINE_ANSWERS.join(', ')}` });
            }
            if (answer) m.offlineAnswer = answer;
            m.injectFault(kind, body.on !== false);
            return send(res, 200, m.snapshot());
          }
          case 'quirk': {
            const q = body.quirk as NetQuirk;
            if (!NET_QUIRKS.includes(q)) return send(res, 400, { error: `quirk must be one of ${NET_QUIRKS.join(', ')}` });
            m.setQuirk(q);
            return send(res, 200, m.snapshot());
          }
          case 'password': {
            if (typeof body.password !== 'string') return send(res, 400, { error: 'password must be a string' });
            m.setPassword(body.password);
            return send(res, 200, m.snapshot());
          }
          case 'serial': {
            if (typeof body.sn !== 'string') return send(res, 400, { error: 'sn must be a string' });
            m.setSerial(body.sn);
            return send(res, 200, m.snapshot());
          }
          case 'reboot':
            m.reboot();
            return send(res, 200, m.snapshot());
          default:
            return send(res, 404, { error: 'unknown action' });
        }
      }
      return send(res, 404, { error: 'not found' });
    })().catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: (e as Error).message });
    });
  });
}
