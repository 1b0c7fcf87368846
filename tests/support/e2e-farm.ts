/**
 * A whole farm for Playwright journeys: the e2e server (tests/support/e2e-server.ts) with SMTP_URL pointing at
 * a local SMTP sink, a farm created through the API (scan range, agent settings, the admin's e-mail bound),
 * a simulated fleet in this process (startFleet) and the real agent (FarmAgent) running fast cycles against
 * the server. Nothing is hand-made: every row the console shows came from the simulator through the agent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FarmAgent } from '@agent/farm-agent';
import { startFleet, type Fleet, type FleetOptions } from '@sim/fleet';
import { startMailCatcher } from '@sim/services/mail-catcher';
import { type ApiSession, setupAdmin } from './e2e-browser';
import { type E2EServer, startServer } from './e2e-server';

export interface FarmOptions {
  agentKey: string;
  /** CIDR of the simulated fleet (each miner its own loopback address). */
  cidr: string;
  miners: number;
  seed?: number;
  mix?: FleetOptions['mix'];
  /** How long a rebooting miner stays dark. */
  rebootDarkMs?: number;
  /** Agent cycle period (scan/poll/upload/pull tasks). */
  cycleMs?: number;
  /** E-mail bound to the administrator (verification codes go there). */
  email?: string;
}

export interface Mail {
  to: string;
  raw: string;
  /** The body, decoded. */
  text: string;
}

export interface E2EFarm {
  server: E2EServer;
  api: ApiSession;
  fleet: Fleet;
  agent: FarmAgent;
  agentKey: string;
  email: string;
  mails: Mail[];
  /** Waits for a mail to `email` after index `since` and returns the 6-digit code in it. */
  waitForCode(since: number, timeoutMs?: number): Promise<string>;
  /** Waits until the server lists `count` miners of the farm (optionally only online ones). */
  waitForMiners(count: number, o?: { online?: boolean; timeoutMs?: number }): Promise<void>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function startE2EFarm(o: FarmOptions): Promise<E2EFarm> {
  const mails: Mail[] = [];
  const smtp = await startMailCatcher((m) => mails.push({ to: m.to.join(','), raw: m.raw, text: m.text }));
  const fleet = await startFleet({
    miners: o.miners,
    cidr: o.cidr,
    rpcPort: 0,
    webPort: 0,
    whatsminerV3Port: 0,
    sshPort: 0,
    seed: o.seed ?? 53,
    rebootDarkMs: o.rebootDarkMs ?? 6000,
    tickMs: 250,
    faultRates: {},
    ...(o.mix ? { mix: o.mix } : {}),
  });
  // a healthy fleet: journeys assert on what operations change, not on random faults
  for (const m of fleet.miners) for (const f of m.activeFaults) m.injectFault(f, false);

  const server = await startServer({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Hashfield <codes@hashfield.test>' } });
  const email = o.email ?? 'ops@hashfield.test';
  const api = await setupAdmin(server.url);
  await api.post('/api/userv2/bindEmail', { email });
  const { secret } = await api.post<{ secret: string }>('/api/agent/createv2', { agentName: `Farm ${o.agentKey}`, agentKey: o.agentKey, noticeEmails: '', agentAddr: '', selfManaged: false });
  const ips = fleet.miners.map((m) => m.ip);
  await api.post('/api/scanip/batchSave', { agentKey: o.agentKey, scanIpList: `${ips[0]}-${ips[ips.length - 1]}-simulated fleet` });
  await api.post('/api/agent/updateAgentSettings', {
    agentKey: o.agentKey,
    pollIntervalSec: 10,
    offlineAfterMissed: 1,
    packetSize: 10,
    pauseMs: 100,
    rpcPort: fleet.ports.rpc,
    webPort: fleet.ports.web,
    whatsminerV3Port: fleet.ports.whatsminerV3,
    sshPort: fleet.ports.ssh,
  });

  const dataDir = mkdtempSync(join(tmpdir(), 'hf-e2e-agent-'));
  const agent = new FarmAgent({
    serverUrl: server.url,
    agentKey: o.agentKey,
    secret,
    dataDir,
    log: () => undefined,
    timeouts: { connectMs: 1000, rpcMs: 4000, webMs: 4000, uplinkMs: 5000 },
  });
  // the agent's own loop waits pollIntervalSec (≥ 10 s by the settings rules); journeys run it faster
  let running = true;
  const cycleMs = o.cycleMs ?? 2500;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      try {
        await agent.runCycle();
      } catch {
        // server restarting or a cycle racing close(): the next cycle retries
      }
      const wait = cycleMs - (Date.now() - started);
      if (wait > 0 && running) await sleep(wait);
    }
  })();

  const waitForMiners: E2EFarm['waitForMiners'] = async (count, w = {}) => {
    const deadline = Date.now() + (w.timeoutMs ?? 60_000);
    let last = -1;
    while (Date.now() < deadline) {
      const list = await api.get<{ total: number }>('/api/miner/list', { agentKey: o.agentKey, pageSize: 1, ...(w.online ? { status: 'online' } : {}) });
      last = list.total;
      if (last === count) return;
      await sleep(500);
    }
    throw new Error(`the server lists ${last} miners, expected ${count}`);
  };

  const waitForCode: E2EFarm['waitForCode'] = async (since, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const mail = mails.slice(since).find((m) => m.to.includes(email));
      const code = mail ? /\b(\d{6})\b/.exec(mail.text) : null;
      if (code?.[1]) return code[1];
      await sleep(200);
    }
    throw new Error(`no verification code mailed to ${email}`);
  };

  return {
    server,
    api,
    fleet,
    agent,
    agentKey: o.agentKey,
    email,
    mails,
    waitForCode,
    waitForMiners,
    close: async () => {
      running = false;
      agent.stop();
      await loop;
      await agent.idle();
      await server.close();
      await fleet.close();
      await smtp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
