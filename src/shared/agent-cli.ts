/**
 * The agent's command-line options (src/agent/main.ts parses them with node:util parseArgs, strictly). Shared because
 * the packaged agent's launcher (src/server/domains/agent-package/package-launcher.ts) writes them and its tests read
 * them back with this very table.
 */
export const AGENT_CLI_OPTIONS = {
  server: { type: 'string' },
  key: { type: 'string' },
  secret: { type: 'string' },
  'data-dir': { type: 'string' },
  config: { type: 'string' },
  'detail-every': { type: 'string' },
  'log-file': { type: 'string' },
  'poll-threads': { type: 'string' },
  help: { type: 'boolean' },
} as const;

/**
 * V8 heap settings that keep a 20,000-miner agent under ~300 MB RSS (measured: live heap ≈ 65–125 MB; without a cap
 * V8 lets garbage grow the heap to 700+ MB). Semi-space 4 MB rather than V8's 16: the young generation is three
 * semi-spaces, and at 5,000 miners 8 MB took the peak RSS of a steady cycle from 216 to 183 MB for the same CPU time;
 * at 20,000 miners on two cores 4 MB (with the poll thread's young generation at 12 MB, sharded-poller.ts) took it
 * from 279–294 to 259–266 MiB (whole run 295–301 → 266–275 MiB), CPU per miner against the bare client 1.91–1.95× →
 * 1.93–2.02×, within the spread between runs (three runs each, tests/bench/agent.bench.ts). The agent re-executes
 * itself once with them unless a heap limit is already set (its main.ts); the Windows task of the package gives them
 * on node's command line, so no second process is started.
 */
export const AGENT_HEAP_FLAGS = ['--max-old-space-size=192', '--max-semi-space-size=4'] as const;

/**
 * Environment of the re-executed agent: glibc's malloc keeps up to 8 arenas per core, one per thread that allocates;
 * with the poll threads (sharded-poller.ts) their freed socket and reply buffers stayed in those arenas. Two arenas:
 * RSS peak of a 20,000-miner agent with two poll threads 439 → 407 MiB for the same CPU (tests/bench/agent.bench.ts).
 * An operator's own MALLOC_ARENA_MAX wins. No effect on Windows (no glibc).
 */
export const AGENT_ENV = { MALLOC_ARENA_MAX: '2' } as const;

/** The agent package's Windows installer (server: agent-package.ts writes it) and the command that runs it, as administrator in the unpacked folder. */
export const AGENT_WINDOWS_INSTALLER = 'install-windows.ps1';
export const AGENT_WINDOWS_INSTALL_COMMAND = `powershell -ExecutionPolicy Bypass -File .\\${AGENT_WINDOWS_INSTALLER}`;
