/**
 * GET /api/role/userAgentMenus?agentKey=… — the call every console page makes first — under load:
 * 50 clients, each its own keep-alive connection and logged-in session of a member (non-admin: role
 * lookup + farm membership per request), 40 requests each back to back, after a warm-up. One client
 * alone (100 requests) is measured too, as the no-contention baseline.
 */
import { ALL_PERMISSION_KEYS } from '@shared/menu-catalogue';
import { BenchClient, type BenchServer, mib, ms, printTable, quantile, startServer, tempDir } from './bench-support';

const CLIENTS = 50;
const PER_CLIENT = 40;
const AGENT_KEY = 'bench-farm';
const PASSWORD = 'bench-pass-1';

async function setup(server: BenchServer): Promise<void> {
  const admin = new BenchClient(server.url);
  await admin.must('POST', '/api/userv3/setup', { user: 'admin', password: PASSWORD });
  await admin.must('POST', '/api/agent/createv2', { agentName: 'Bench farm', agentKey: AGENT_KEY });
  const role = await admin.must<{ id: string }>('POST', '/api/role/save', { name: 'bench-operator', permissions: ALL_PERMISSION_KEYS.join(',') });
  await admin.must('POST', '/api/user/save', { user: 'operator', password: PASSWORD, roleId: role.id, agentKeys: AGENT_KEY });
  admin.close();
}

async function login(url: string): Promise<BenchClient> {
  const c = new BenchClient(url);
  await c.must('POST', '/api/userv3/login', { user: 'operator', password: PASSWORD });
  return c;
}

interface Round {
  latencies: number[];
  wallMs: number;
  errors: number;
}

async function round(clients: BenchClient[], perClient: number): Promise<Round> {
  const path = `/api/role/userAgentMenus?agentKey=${AGENT_KEY}`;
  const latencies: number[] = [];
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      for (let i = 0; i < perClient; i++) {
        const res = await c.request('GET', path);
        latencies.push(res.ms);
        if (res.status !== 200 || !res.body.startsWith('{"code":0')) errors++;
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), wallMs: performance.now() - t0, errors };
}

function row(r: Round) {
  return {
    requests: r.latencies.length,
    p50: ms(quantile(r.latencies, 0.5)),
    p95: ms(quantile(r.latencies, 0.95)),
    p99: ms(quantile(r.latencies, 0.99)),
    max: ms(quantile(r.latencies, 1)),
    'req/s': Math.round((r.latencies.length / r.wallMs) * 1000),
    errors: r.errors,
  };
}

export async function run(): Promise<void> {
  const data = tempDir('hf-bench-menus-');
  const server = await startServer({ dataDir: data.dir });
  const clients: BenchClient[] = [];
  try {
    await setup(server);
    for (let i = 0; i < CLIENTS; i += 5) clients.push(...(await Promise.all(Array.from({ length: Math.min(5, CLIENTS - i) }, () => login(server.url)))));
    const sample = JSON.parse((await clients[0]!.request('GET', `/api/role/userAgentMenus?agentKey=${AGENT_KEY}`)).body) as unknown;
    const bytes = JSON.stringify(sample).length;

    await round(clients, 5); // warm-up: JIT, prepared plans, connections
    const single = await round(clients.slice(0, 1), 100);
    const loaded = await round(clients, PER_CLIENT);
    const mem = server.memory();
    printTable(`(b) GET /api/role/userAgentMenus (member session, ${bytes} B answer), PGlite, node http keep-alive`, {
      '1 client × 100': row(single),
      [`${CLIENTS} clients × ${PER_CLIENT}`]: row(loaded),
    });
    console.log(`server RSS after: ${mib(mem.rssMiB)} (peak ${mib(mem.peakMiB)})`);
  } finally {
    for (const c of clients) c.close();
    await server.stop();
    await data.remove();
  }
}
