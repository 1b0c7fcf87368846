/**
 * The agent's secret stays off command lines (src/agent/agent-secret.ts): every user of the computer can read them
 * (ps, /proc/<pid>/cmdline). The agent is started as an operator starts it, through `node src/agent/main.ts`, which
 * re-executes itself with its heap flags; both processes' command lines are read back from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO_ROOT = path.resolve(__dirname, '../..');
const SECRET = 'Zq9-cmdline_secret_0123456789';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hf-agent-cmdline-'));
const running: ChildProcess[] = [];
afterAll(() => {
  for (const p of running) p.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts the agent against a closed port (it keeps trying); resolves once it says it started. */
async function startAgent(args: string[], env: Record<string, string> = {}): Promise<{ proc: ChildProcess; log: () => string }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/agent/main.ts', '--server', 'http://127.0.0.1:9', '--key', 'cmdline-farm', '--data-dir', path.join(dir, `data-${running.length}`), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_OPTIONS: '', HASHFIELD_AGENT_SECRET: '', ...env },
  });
  running.push(proc);
  let log = '';
  proc.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const end = Date.now() + 30_000;
  while (!log.includes('[agent] starting:')) {
    if (proc.exitCode !== null || Date.now() > end) throw new Error(`the agent did not start (exit ${proc.exitCode}):\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { proc, log: () => log };
}

const cmdline = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
const children = (pid: number) =>
  fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

async function stop(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null) return proc.exitCode;
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  proc.kill('SIGTERM');
  return exited;
}

describe.skipIf(process.platform !== 'linux')('the agent secret on the command line', () => {
  it('given with --secret: masked in the process title, and the re-executed agent gets it through its environment', async () => {
    const { proc, log } = await startAgent(['--secret', SECRET]);
    const parent = cmdline(proc.pid!);
    expect(parent).not.toContain(SECRET);
    expect(parent).toContain('--secret ***');
    const [child] = children(proc.pid!);
    expect(child).toBeGreaterThan(0);
    const childLine = cmdline(child!);
    expect(childLine).toContain('--max-old-space-size=192'); // the re-executed agent, with its heap flags
    expect(childLine).toContain('--key cmdline-farm');
    expect(childLine).not.toContain(SECRET);
    expect(childLine).not.toContain('--secret');
    expect(fs.readFileSync(`/proc/${child}/environ`, 'utf8').split('\0')).toContain(`HASHFIELD_AGENT_SECRET=${SECRET}`);
    expect(log()).not.toContain(SECRET);
    expect(await stop(proc)).toBe(0);
  }, 60_000);

  it('given with --secret-file or HASHFIELD_AGENT_SECRET: never on a command line', async () => {
    const file = path.join(dir, 'secret.txt');
    fs.writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    for (const [args, env] of [[['--secret-file', file], {}], [[], { HASHFIELD_AGENT_SECRET: SECRET }]] as const) {
      const { proc, log } = await startAgent([...args], env);
      for (const pid of [proc.pid!, ...children(proc.pid!)]) expect(cmdline(pid)).not.toContain(SECRET);
      expect(log()).not.toContain(SECRET);
      expect(await stop(proc)).toBe(0);
    }
  }, 60_000);

  it('refuses an unreadable --secret-file or a missing secret with the way to give one', async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', 'src/agent/main.ts', '--server', 'http://127.0.0.1:9', '--key', 'cmdline-farm', ...args], {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'ignore', 'pipe'],
          env: { ...process.env, NODE_OPTIONS: '', HASHFIELD_AGENT_SECRET: '' },
        });
        let err = '';
        p.stderr?.on('data', (d: Buffer) => (err += d.toString()));
        p.on('exit', (code) => resolve({ code, err }));
      });
    const missingFile = await run(['--secret-file', path.join(dir, 'none')]);
    expect(missingFile.code).toBe(2);
    expect(missingFile.err).toContain(`cannot read --secret-file ${path.join(dir, 'none')} (ENOENT)`);
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('missing --server, --key or --secret (not given: --secret (or --secret-file, or HASHFIELD_AGENT_SECRET))');
  }, 60_000);
});
