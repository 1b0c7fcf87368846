import type { DriverEnv } from '@agent/miner-types';

/**
 * The driver environment of the agent tests against a simulated fleet: the fleet's ports (SSH too, for the security
 * scan), no extra credentials (the simulator's default passwords), 1 s to connect, 4 s per read, details every 5
 * cycles; `over` changes any of them.
 */
export function simDriverEnv(fleet: { ports: { rpc: number; web: number; whatsminerV3: number; ssh?: number } }, over: Partial<DriverEnv> = {}): DriverEnv {
  return {
    ports: { rpc: fleet.ports.rpc, web: fleet.ports.web, whatsminerV3: fleet.ports.whatsminerV3, ...(fleet.ports.ssh ? { ssh: fleet.ports.ssh } : {}) },
    credentials: { antminer: [], whatsminer: [], braiins: [], vnish: [], luxos: [] },
    connectTimeoutMs: 1000,
    rpcTimeoutMs: 4000,
    webTimeoutMs: 4000,
    detailEveryCycles: 5,
    ...over,
  };
}
