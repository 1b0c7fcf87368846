/**
 * The agent package of one farm (GET /api/agent/package): a .tar.gz with one folder
 * `hashfield-agent-<agentKey>/` holding
 *   agent.js                 the agent in one file (agent-bundle.ts), Node.js 20 or newer, nothing to install
 *   hashfield-agent.json     server URL and agentKey of THIS farm; "secret" empty (shown once by the console,
 *                            never stored in clear by the server, so never in a download)
 *   hashfield-agent.service  systemd unit (Linux), user hashfield, data in /var/lib/hashfield-agent
 *   README.md                the steps: unpack, put the secret in the file, start / restart the service
 *   package.json             pins CommonJS for agent.js whatever folder it is unpacked in
 */
import { PACKAGE_CONFIG_FILE } from './package-launcher';
import { agentBundle } from './agent-bundle';
import { writeTarGz } from './tar-writer';

export const INSTALL_DIR = '/opt/hashfield-agent';
export const SERVICE_NAME = 'hashfield-agent';
const DATA_DIR = '/var/lib/hashfield-agent';

export interface AgentPackageInput {
  agentKey: string;
  agentName: string;
  /** The address the agent reaches this server at (the console's own origin). */
  serverUrl: string;
}

export interface AgentPackage {
  fileName: string;
  archive: Buffer;
  /** Source hash of agent.js. */
  build: string;
  source: 'memory' | 'disk' | 'build';
  buildMs: number;
}

export function packageConfig(input: AgentPackageInput): string {
  return `${JSON.stringify({ server: input.serverUrl, agentKey: input.agentKey, secret: '', dataDir: './agent-data' }, null, 2)}\n`;
}

export function systemdUnit(input: AgentPackageInput): string {
  return `[Unit]
Description=Hashfield farm agent (${input.agentKey})
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=hashfield
WorkingDirectory=${INSTALL_DIR}
ExecStart=/usr/bin/env node ${INSTALL_DIR}/agent.js --data-dir ${DATA_DIR}
StateDirectory=${SERVICE_NAME}
Restart=always
RestartSec=5
KillSignal=SIGTERM
TimeoutStopSec=90
NoNewPrivileges=yes

[Install]
WantedBy=multi-user.target
`;
}

export function readme(input: AgentPackageInput, folder: string, build: string): string {
  return `# Hashfield agent of the farm ${input.agentName} (${input.agentKey})

This package runs the farm's agent on a computer (NUC) in the same network as the miners. It scans the
farm's IP ranges, reads the miners and reports to ${input.serverUrl}.

Computer, per 10,000 miners: 4 CPU cores, 16 GB RAM, 100 GB disk, 20 Mbit/s; fewer than 20,000 miners per
computer; ping under 100 ms to the miners and under 200 ms to the server. Needs Node.js 20 or newer
(\`node --version\`); agent.js is the whole agent, nothing else to install.

## 1. Change the file

Put the farm's agent secret (shown once by the console, in the add-farm wizard or the farm dialog; "show a
new secret" there gives a new one) in \`"secret"\` of ${PACKAGE_CONFIG_FILE}:

    {
      "server": "${input.serverUrl}",
      "agentKey": "${input.agentKey}",
      "secret": "<the farm's secret>",
      "dataDir": "./agent-data"
    }

Change "server" if this computer reaches the server at another address.

## 2. Try it

    node agent.js

It prints what it finds; Ctrl+C stops it. Options on the command line win over the file
(\`node agent.js --help\`).

## 3. Install it as a service (Linux, systemd)

    sudo useradd --system --no-create-home hashfield
    sudo mkdir -p ${INSTALL_DIR}
    sudo tar -xzf ${folder}.tar.gz -C ${INSTALL_DIR} --strip-components=1
    sudo chown hashfield ${INSTALL_DIR}/${PACKAGE_CONFIG_FILE} && sudo chmod 600 ${INSTALL_DIR}/${PACKAGE_CONFIG_FILE}
    sudo cp ${INSTALL_DIR}/${SERVICE_NAME}.service /etc/systemd/system/
    sudo systemctl daemon-reload
    sudo systemctl enable --now ${SERVICE_NAME}

## 4. Restart the service

After changing ${PACKAGE_CONFIG_FILE}, or to update the agent (unpack a new package over the old one):

    sudo systemctl restart ${SERVICE_NAME}

The console's wizard shows when the agent reports again. Status and log:

    systemctl status ${SERVICE_NAME}
    journalctl -u ${SERVICE_NAME} -f

On Windows, run \`node agent.js\` in this folder (for example as a scheduled task at start-up).

Agent build ${build}.
`;
}

/** Builds the archive (the agent bundle is cached; the rest is a few kilobytes). */
export async function buildAgentPackage(input: AgentPackageInput): Promise<AgentPackage> {
  const bundle = await agentBundle();
  const folder = `hashfield-agent-${input.agentKey}`;
  const archive = writeTarGz([
    { name: `${folder}/`, mode: 0o755 },
    { name: `${folder}/agent.js`, data: bundle.code, mode: 0o755 },
    { name: `${folder}/${PACKAGE_CONFIG_FILE}`, data: packageConfig(input), mode: 0o600 },
    { name: `${folder}/${SERVICE_NAME}.service`, data: systemdUnit(input), mode: 0o644 },
    { name: `${folder}/README.md`, data: readme(input, folder, bundle.hash), mode: 0o644 },
    { name: `${folder}/package.json`, data: `${JSON.stringify({ name: 'hashfield-agent', private: true, type: 'commonjs', scripts: { start: 'node agent.js' } }, null, 2)}\n`, mode: 0o644 },
  ]);
  return { fileName: `${folder}.tar.gz`, archive, build: bundle.hash, source: bundle.source, buildMs: bundle.buildMs };
}
