import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import {
  AGENT_UPLINK_PATHS,
  AGENT_UPLINK_PREFIX,
  AgentConfig,
  AgentTask,
  HeartbeatResult,
  SnapshotBatchResult,
  TaskResultAck,
  agentAuthorization,
  type Heartbeat,
  type TaskResultReport,
} from '@shared/schemas/agent-uplink';
import type { HistoryLogUpload } from '@shared/schemas/miner-records';
import { z } from 'zod';

/**
 * HTTP client for the agent uplink (src/shared/schemas/agent-uplink.ts): Bearer auth, gzip snapshot
 * upload, envelope unwrapping + zod validation, round-trip measurement (netDelayMs). Answers may come gzip-compressed
 * (it accepts gzip: a farm's internet link is often the slowest part, and a batch operation's task list for 10,000
 * miners is ~1.5 MB of JSON); they are decompressed here.
 */

export class UplinkError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly code?: number,
  ) {
    super(message);
    this.name = 'UplinkError';
  }
}

interface RawResponse {
  status: number;
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

export class UplinkClient {
  /** Round trip of the last successful call, ms. */
  netDelayMs = 0;
  private readonly base: URL;
  private readonly auth: string;

  constructor(
    serverUrl: string,
    agentKey: string,
    secret: string,
    private readonly timeoutMs = 30000,
  ) {
    this.base = new URL(serverUrl);
    this.auth = agentAuthorization(agentKey, secret);
  }

  private url(p: string): URL {
    const basePath = this.base.pathname.replace(/\/+$/, '');
    return new URL(`${basePath}${AGENT_UPLINK_PREFIX}${p}`, this.base);
  }

  private request(method: string, url: URL, body?: Buffer, headers: Record<string, string> = {}, timeoutMs = this.timeoutMs): Promise<RawResponse> {
    const mod = url.protocol === 'https:' ? https : http;
    const started = Date.now();
    return new Promise<RawResponse>((resolve, reject) => {
      let settled = false;
      const req = mod.request(url, {
        method,
        // I18N: the server's messages in the language of the agent's own log (English).
        headers: { Authorization: this.auth, Accept: 'application/json', 'Accept-Encoding': 'gzip', I18N: 'en-US', ...(body ? { 'Content-Length': String(body.length) } : {}), ...headers },
      });
      const timer = setTimeout(() => fail(new UplinkError(`${method} ${url.pathname}: timeout after ${timeoutMs} ms`, null)), timeoutMs);
      function fail(e: Error) {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        reject(e);
      }
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (settled) return;
          // Network delay from light calls only: an upload's time is mostly the server storing it.
          if (!body || body.length < 4096) this.netDelayMs = Date.now() - started;
          const raw = Buffer.concat(chunks);
          const done = (decoded: Buffer) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status: res.statusCode ?? 0, body: decoded, headers: res.headers });
          };
          const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
          if (encoding === '' || encoding === 'identity') return done(raw);
          if (encoding !== 'gzip' && encoding !== 'x-gzip') return fail(new UplinkError(`${method} ${url.pathname}: answer in an unknown encoding (${encoding})`, res.statusCode ?? null));
          zlib.gunzip(raw, (err, decoded) => (err ? fail(new UplinkError(`${method} ${url.pathname}: broken gzip answer: ${err.message}`, res.statusCode ?? null)) : done(decoded)));
        });
        res.on('error', (e) => fail(new UplinkError(e.message, null)));
      });
      req.on('error', (e) => fail(new UplinkError(`${method} ${url.pathname}: ${e.message}`, null)));
      req.end(body);
    });
  }

  private async call<T extends z.ZodType>(method: string, p: string, schema: T, body?: Buffer, headers?: Record<string, string>): Promise<z.infer<T>> {
    const res = await this.request(method, this.url(p), body, headers);
    let json: unknown;
    try {
      json = JSON.parse(res.body.toString('utf8'));
    } catch {
      if (res.status === 401) throw new UplinkError(`${method} ${p}: HTTP 401, the agent key or secret was not accepted`, 401);
      throw new UplinkError(`${method} ${p}: HTTP ${res.status}, not JSON`, res.status);
    }
    const env = z.object({ code: z.union([z.number(), z.string()]), msg: z.string().optional(), data: z.unknown() }).safeParse(json);
    if (res.status === 401) throw new UplinkError(`${method} ${p}: HTTP 401, the agent key or secret was not accepted`, 401, env.success ? Number(env.data.code) : undefined);
    if (res.status < 200 || res.status >= 300 || !env.success || Number(env.data.code) !== 0) {
      const msg = env.success ? (env.data.msg ?? '') : '';
      throw new UplinkError(`${method} ${p}: HTTP ${res.status} ${msg}`.trim(), res.status, env.success ? Number(env.data.code) : undefined);
    }
    const parsed = schema.safeParse(env.data.data);
    if (!parsed.success) throw new UplinkError(`${method} ${p}: unexpected answer: ${parsed.error.message.slice(0, 200)}`, res.status);
    return parsed.data;
  }

  getConfig(): Promise<AgentConfig> {
    return this.call('GET', AGENT_UPLINK_PATHS.config, AgentConfig);
  }

  /** Uploads one already-gzipped SnapshotBatch. */
  postSnapshotsGz(gz: Buffer): Promise<SnapshotBatchResult> {
    return this.call('POST', AGENT_UPLINK_PATHS.snapshots, SnapshotBatchResult, gz, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
  }

  heartbeat(h: Heartbeat): Promise<HeartbeatResult> {
    return this.call('POST', AGENT_UPLINK_PATHS.heartbeat, HeartbeatResult, Buffer.from(JSON.stringify(h)), { 'Content-Type': 'application/json' });
  }

  /** Pending tasks; entries that do not parse are skipped (reported back as failed by the caller). */
  async getTasks(): Promise<{ tasks: AgentTask[]; invalid: Array<{ id: string; error: string }> }> {
    const raw = await this.call('GET', AGENT_UPLINK_PATHS.tasks, z.array(z.unknown()));
    const tasks: AgentTask[] = [];
    const invalid: Array<{ id: string; error: string }> = [];
    for (const t of raw) {
      const p = AgentTask.safeParse(t);
      if (p.success) tasks.push(p.data);
      else {
        const id = t && typeof t === 'object' && 'id' in t ? String((t as { id: unknown }).id) : '';
        if (id) invalid.push({ id, error: p.error.message.slice(0, 200) });
      }
    }
    return { tasks, invalid };
  }

  postTaskResults(id: string, report: TaskResultReport): Promise<TaskResultAck> {
    return this.call('POST', AGENT_UPLINK_PATHS.taskResults.replace(':id', encodeURIComponent(id)), TaskResultAck, Buffer.from(JSON.stringify(report)), {
      'Content-Type': 'application/json',
    });
  }

  /** Uploads the log read for a history-log task. */
  postHistoryLog(id: string, upload: HistoryLogUpload): Promise<{ stored: boolean }> {
    return this.call('POST', AGENT_UPLINK_PATHS.historyLog.replace(':id', encodeURIComponent(id)), z.object({ stored: z.boolean() }), Buffer.from(JSON.stringify(upload)), {
      'Content-Type': 'application/json',
    });
  }

  /** Downloads a file (firmware) from an absolute URL or a server path, with the agent's Authorization. */
  async fetchFile(fileUrl: string): Promise<Buffer> {
    const url = /^https?:\/\//i.test(fileUrl) ? new URL(fileUrl) : new URL(fileUrl, this.base);
    const res = await this.request('GET', url, undefined, {}, Math.max(this.timeoutMs, 300000));
    if (res.status < 200 || res.status >= 300) throw new UplinkError(`GET ${url.pathname}: HTTP ${res.status}`, res.status);
    return res.body;
  }
}
