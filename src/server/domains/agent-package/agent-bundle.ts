/**
 * The farm agent as one JavaScript file (agent.js of the package), built from src/agent by esbuild on the
 * first request and cached by the hash of its sources: in memory, and on disk (the system temp folder) so
 * other server processes and restarts reuse it. A source change gives a new hash, hence a new build.
 * The launcher (package-launcher.ts) runs first and reads the package's config file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, version as esbuildVersion } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const AGENT_MAIN = path.join(ROOT, 'src/agent/main.ts');
const POLL_WORKER = path.join(ROOT, 'src/agent/poll-worker.ts');
const LAUNCHER = fileURLToPath(new URL('./package-launcher.ts', import.meta.url));
/** Folders whose sources end up in the bundle (the agent imports shared; both import zod). */
const SOURCE_DIRS = [path.join(ROOT, 'src/agent'), path.join(ROOT, 'src/shared')];

export interface AgentBundle {
  /** First 16 hex digits of the source hash. */
  hash: string;
  code: Buffer;
  /** How the bundle was obtained by this call (for logs and tests). */
  source: 'memory' | 'disk' | 'build';
  buildMs: number;
}

function listSources(dir: string, out: string[]): void {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) listSources(p, out);
    else if (/\.(ts|json)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) out.push(p);
  }
}

function zodVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/zod/package.json'), 'utf8')) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
}

/** Hash of everything that can change the bundle: the agent and shared sources, the launcher, esbuild and zod versions. */
export function agentSourceHash(): string {
  const files: string[] = [LAUNCHER];
  for (const d of SOURCE_DIRS) listSources(d, files);
  files.sort();
  const h = createHash('sha256');
  h.update(`esbuild ${esbuildVersion} zod ${zodVersion()} node20\n`);
  for (const f of files) {
    h.update(path.relative(ROOT, f));
    h.update('\0');
    h.update(fs.readFileSync(f));
    h.update('\0');
  }
  return h.digest('hex').slice(0, 16);
}

/** How agent.js is built (tests/bench/agent.bench.ts builds its agent child the same way). */
export const PACKAGE_BUILD = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'none',
  tsconfig: path.join(ROOT, 'tsconfig.json'),
  define: { HASHFIELD_PACKAGE: 'true' },
} as const satisfies BuildOptions;

async function buildBundle(hash: string): Promise<Buffer> {
  const result = await build({
    stdin: {
      // One file for both: the agent (launcher, then main), or in a poll thread (sharded-poller.ts) the thread's loop.
      contents: [
        `import { isPollWorkerThread, startPollWorker } from ${JSON.stringify(POLL_WORKER)};`,
        `if (isPollWorkerThread()) startPollWorker();`,
        `else {`,
        `  require(${JSON.stringify(LAUNCHER)});`,
        `  require(${JSON.stringify(AGENT_MAIN)});`,
        `}`,
      ].join('\n'),
      resolveDir: ROOT,
      sourcefile: 'hashfield-agent-entry.ts',
      loader: 'ts',
    },
    ...PACKAGE_BUILD,
    banner: { js: `#!/usr/bin/env node\n// Hashfield farm agent, one file (Node.js 20 or newer). Source ${hash}.` },
    write: false,
    logLevel: 'silent',
  });
  const out = result.outputFiles[0];
  if (!out) throw new Error('esbuild produced no output');
  return Buffer.from(out.contents);
}

let memory: { hash: string; bundle: Promise<Buffer> } | null = null;

function diskPath(hash: string): string {
  return path.join(os.tmpdir(), 'hashfield-agent-bundle', `agent-${hash}.js`);
}

function readDisk(hash: string): Buffer | null {
  try {
    return fs.readFileSync(diskPath(hash));
  } catch {
    return null;
  }
}

function writeDisk(hash: string, code: Buffer): void {
  try {
    const file = diskPath(hash);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, code);
    fs.renameSync(tmp, file);
    // Builds of older sources: dropped after a week (one file per source hash, ~0.6 MB each).
    const weekAgo = Date.now() - 7 * 24 * 3600_000;
    for (const name of fs.readdirSync(path.dirname(file))) {
      const p = path.join(path.dirname(file), name);
      if (p !== file && /^agent-[0-9a-f]{16}\.js$/.test(name) && fs.statSync(p).mtimeMs < weekAgo) fs.rmSync(p, { force: true });
    }
  } catch {
    // A read-only temp folder only costs a rebuild in the next process.
  }
}

/** The current bundle: from memory, the disk cache, or a fresh build (concurrent callers share one build). */
export async function agentBundle(): Promise<AgentBundle> {
  const started = Date.now();
  const hash = agentSourceHash();
  if (memory?.hash === hash) return { hash, code: await memory.bundle, source: 'memory', buildMs: Date.now() - started };
  const cached = readDisk(hash);
  if (cached) {
    memory = { hash, bundle: Promise.resolve(cached) };
    return { hash, code: cached, source: 'disk', buildMs: Date.now() - started };
  }
  const bundle = buildBundle(hash).then((code) => {
    writeDisk(hash, code);
    return code;
  });
  memory = { hash, bundle };
  try {
    return { hash, code: await bundle, source: 'build', buildMs: Date.now() - started };
  } catch (e) {
    if (memory?.bundle === bundle) memory = null;
    throw e;
  }
}
