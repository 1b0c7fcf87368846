import net from 'node:net';
import { plainIPv4 } from './cidr';
import { refuseSocket, resetSocket, type MinerLookup } from './rpc-server';
import { SLOW_REPLY_MS } from './sim-types';

/**
 * The fleet's single SSH listener (port 22), for the agent's security scan: one socket serves every simulated
 * miner, chosen by the local address dialled. It speaks only the first step of SSH, the server's identification
 * line, which is all the scan reads. A miner whose SSH is open (SimMiner.sshOpen: Braiins OS, VNish and LuxOS units
 * always, stock ones with the `ssh-intrusion` fault) sends what a stock Antminer with dropbear enabled sends, ignores
 * what the client writes and hangs up after a short while; a stock miner with SSH closed (the default), a dark one,
 * or an address without a miner is reset at once without a byte (a real closed port refuses the connection; a shared
 * listener can only reset it).
 */

/**
 * The identification line of the dropbear build on S19/S21 stock firmware. Every family sends it: the reference does
 * not say which SSH server build the other firmware ships, and the scan does not judge by the banner.
 */
export const SIM_SSH_BANNER = 'SSH-2.0-dropbear_2020.81';
/** An open connection is closed this long after the banner (dropbear would wait for the key exchange). */
const HOLD_MS = 3000;

export function createSshServer(lookup: MinerLookup): net.Server {
  return net.createServer((socket) => {
    const m = lookup(plainIPv4(socket.localAddress));
    if (!m || !m.sshOpen || m.quirk === 'reset') {
      refuseSocket(socket, m);
      return;
    }
    socket.on('error', () => socket.destroy());
    socket.on('end', () => socket.destroy());
    socket.setTimeout(HOLD_MS, () => socket.end());
    // the client's own identification line and key exchange are read and dropped
    socket.on('data', () => undefined);
    const send = (): void => {
      if (socket.destroyed) return;
      if (!m.sshOpen) return resetSocket(socket);
      socket.write(`${SIM_SSH_BANNER}\r\n`);
    };
    if (m.quirk === 'slow') setTimeout(send, SLOW_REPLY_MS).unref();
    else send();
  });
}
