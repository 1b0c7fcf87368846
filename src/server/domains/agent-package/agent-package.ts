/**
 * The agent package of one farm (GET /api/agent/package): a .tar.gz with one folder
 * `hashfield-agent-<agentKey>/` holding
 *   agent.js                 the agent in one file (agent-bundle.ts), Node.js 20 or newer, nothing to install
 *   hashfield-agent.json     server URL and agentKey of THIS farm; "secret" empty (shown once by the console,
 *                            never stored in clear by the server, so never in a download)
 *   hashfield-agent.service  systemd unit (Linux), user hashfield, data in /var/lib/hashfield-agent
 *   install-windows.ps1      the same as a Windows scheduled task (windowsInstaller)
 *   README.md                the steps: unpack, put the secret in the file, start / restart the service
 *   README.zh-CN.md, README.ru.md  the same in the console's other two languages
 *   package.json             pins CommonJS for agent.js whatever folder it is unpacked in
 */
import { AGENT_HEAP_FLAGS, AGENT_WINDOWS_INSTALL_COMMAND, AGENT_WINDOWS_INSTALLER } from '@shared/agent-cli';
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

/**
 * The Windows counterpart of the systemd unit: a PowerShell script (run as administrator in the unpacked folder) that
 * registers the task "Hashfield agent <agentKey>" — at start-up, as SYSTEM, restarted every minute after a failure,
 * no time limit — running agent.js of that folder with its log in agent-data\agent.log (--log-file: a scheduled task
 * keeps no output), and starts it. Run again it replaces the task (a restart after changing the file, or an update);
 * with -Remove it removes it. It refuses to install while the file has no secret, and without Node.js. ASCII only
 * (Windows PowerShell 5.1 reads a script without a byte-order mark in the system's code page), CRLF line ends.
 */
export function windowsInstaller(input: AgentPackageInput): string {
  const task = `Hashfield agent ${input.agentKey}`;
  const lines = [
    `# Hashfield agent of the farm ${input.agentKey}: runs agent.js of this folder as a Windows scheduled task`,
    '# (at start-up, as SYSTEM, restarted every minute if it stops; log in agent-data\\agent.log).',
    '# In PowerShell opened as administrator, in this folder:',
    `#   install, or restart after changing ${PACKAGE_CONFIG_FILE}:  ${AGENT_WINDOWS_INSTALL_COMMAND}`,
    `#   remove:                                                  ${AGENT_WINDOWS_INSTALL_COMMAND} -Remove`,
    'param([switch]$Remove)',
    "$ErrorActionPreference = 'Stop'",
    `$TaskName = '${task}'`,
    '$Dir = Split-Path -Parent $MyInvocation.MyCommand.Path',
    '$me = New-Object Security.Principal.WindowsPrincipal([Security.Principal.WindowsIdentity]::GetCurrent())',
    'if (-not $me.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)) {',
    "  Write-Host 'Run this in a PowerShell opened as administrator.' -ForegroundColor Red; exit 1",
    '}',
    '$old = Get-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue',
    'if ($old) {',
    '  Stop-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue',
    '  Unregister-ScheduledTask -TaskName $TaskName -Confirm:$false',
    '}',
    `if ($Remove) { Write-Host "Removed the task '$TaskName'."; exit 0 }`,
    '$node = Get-Command node -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1',
    'if (-not $node) {',
    "  Write-Host 'Node.js 20 or newer is needed (https://nodejs.org); install it, then run this again in a new PowerShell.' -ForegroundColor Red; exit 1",
    '}',
    `$config = Get-Content -Raw (Join-Path $Dir '${PACKAGE_CONFIG_FILE}') | ConvertFrom-Json`,
    'if (-not $config.secret) {',
    `  Write-Host "Put the farm's agent secret in ${PACKAGE_CONFIG_FILE} first (README.md, step 1)." -ForegroundColor Red; exit 1`,
    '}',
    "$agent = Join-Path $Dir 'agent.js'",
    "$log = Join-Path $Dir 'agent-data\\agent.log'",
    // The heap flags on node's command line: the agent then runs in this one process (it would otherwise start itself
    // again with them, and Windows does not end a child with its parent when the task is stopped).
    `$action = New-ScheduledTaskAction -Execute $node.Source -Argument ('${AGENT_HEAP_FLAGS.join(' ')} "{0}" --log-file "{1}"' -f $agent, $log) -WorkingDirectory $Dir`,
    '$trigger = New-ScheduledTaskTrigger -AtStartup',
    "$runAs = New-ScheduledTaskPrincipal -UserId 'SYSTEM' -LogonType ServiceAccount -RunLevel Highest",
    '$settings = New-ScheduledTaskSettingsSet -StartWhenAvailable -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries `',
    '  -ExecutionTimeLimit ([TimeSpan]::Zero) -RestartCount 999 -RestartInterval (New-TimeSpan -Minutes 1) -MultipleInstances IgnoreNew',
    `Register-ScheduledTask -TaskName $TaskName -Description 'Hashfield farm agent (${input.agentKey})' -Action $action -Trigger $trigger -Principal $runAs -Settings $settings | Out-Null`,
    'Start-ScheduledTask -TaskName $TaskName',
    `Write-Host "The task '$TaskName' runs the agent now and at every start-up. Log: $log"`,
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** The package README's languages: README.md (English), README.zh-CN.md, README.ru.md — the console's three locales. */
export type ReadmeLanguage = 'en-US' | 'zh-CN' | 'ru';

/** The shell steps of the README, the same in every language. */
function steps(input: AgentPackageInput, folder: string) {
  return {
    config: `    {
      "server": "${input.serverUrl}",
      "agentKey": "${input.agentKey}",
      "secret": "<secret>",
      "dataDir": "./agent-data"
    }`,
    install: `    sudo useradd --system --no-create-home hashfield
    sudo mkdir -p ${INSTALL_DIR}
    sudo tar -xzf ${folder}.tar.gz -C ${INSTALL_DIR} --strip-components=1
    sudo chown hashfield ${INSTALL_DIR}/${PACKAGE_CONFIG_FILE} && sudo chmod 600 ${INSTALL_DIR}/${PACKAGE_CONFIG_FILE}
    sudo cp ${INSTALL_DIR}/${SERVICE_NAME}.service /etc/systemd/system/
    sudo systemctl daemon-reload
    sudo systemctl enable --now ${SERVICE_NAME}`,
    restart: `    sudo systemctl restart ${SERVICE_NAME}`,
    windows: `    ${AGENT_WINDOWS_INSTALL_COMMAND}`,
    status: `    systemctl status ${SERVICE_NAME}
    journalctl -u ${SERVICE_NAME} -f`,
  };
}

export function readme(input: AgentPackageInput, folder: string, build: string, lang: ReadmeLanguage = 'en-US'): string {
  const st = steps(input, folder);
  if (lang === 'zh-CN') {
    return `# 矿场 ${input.agentName}（${input.agentKey}）的 Hashfield 代理

本安装包在与矿机处于同一网络的电脑（NUC）上运行矿场代理。它扫描矿场的 IP 段、读取矿机数据并上报到
${input.serverUrl}。

电脑配置（每 10,000 台矿机）：4 核 CPU、16 GB 内存、100 GB 硬盘、20 Mbit/s 带宽；每台电脑少于 20,000 台矿机；
到矿机的 ping 低于 100 ms，到服务器低于 200 ms。需要 Node.js 20 或更新版本（\`node --version\`）；agent.js
就是完整的代理，无需安装其他东西。

## 1. 修改文件

把矿场的代理密钥（控制台只显示一次：在添加矿场向导或矿场对话框中；在那里“显示新密钥”会生成新的密钥）填入
${PACKAGE_CONFIG_FILE} 的 \`"secret"\`：

${st.config}

如果这台电脑通过其他地址访问服务器，请修改 "server"。

## 2. 试运行

    node agent.js

它会打印找到的内容；按 Ctrl+C 停止。命令行参数优先于文件（\`node agent.js --help\`）。

## 3. 安装为服务（Linux，systemd）

${st.install}

## 4. 重启服务

修改 ${PACKAGE_CONFIG_FILE} 之后，或更新代理时（把新的安装包解压覆盖旧的）：

${st.restart}

控制台向导会显示代理何时再次上报。状态和日志：

${st.status}

在 Windows 上：解压（\`tar -xzf ${folder}.tar.gz\`），修改文件（第 1 步），然后在以管理员身份打开的 PowerShell 中、在此文件夹里运行

${st.windows}

它把代理安装为开机启动的计划任务（以 SYSTEM 身份运行，停止后每分钟重启），日志在 agent-data\\agent.log。修改文件后再次运行
即可重启；加上 \`-Remove\` 则删除该任务。

代理构建 ${build}。
`;
  }
  if (lang === 'ru') {
    return `# Агент Hashfield фермы ${input.agentName} (${input.agentKey})

Этот пакет запускает агента фермы на компьютере (NUC) в одной сети с майнерами. Агент сканирует диапазоны IP
фермы, читает данные майнеров и отправляет их на ${input.serverUrl}.

Компьютер на каждые 10 000 майнеров: 4 ядра CPU, 16 ГБ ОЗУ, 100 ГБ диска, 20 Мбит/с; меньше 20 000 майнеров на
один компьютер; ping до майнеров меньше 100 мс, до сервера меньше 200 мс. Нужен Node.js 20 или новее
(\`node --version\`); agent.js — это весь агент, больше ничего устанавливать не нужно.

## 1. Измените файл

Впишите секрет агента фермы (консоль показывает его один раз: в мастере добавления фермы или в окне фермы;
«показать новый секрет» там выдаёт новый) в \`"secret"\` файла ${PACKAGE_CONFIG_FILE}:

${st.config}

Измените "server", если этот компьютер обращается к серверу по другому адресу.

## 2. Проверьте

    node agent.js

Агент печатает, что находит; Ctrl+C останавливает его. Параметры командной строки важнее файла
(\`node agent.js --help\`).

## 3. Установите как службу (Linux, systemd)

${st.install}

## 4. Перезапуск службы

После изменения ${PACKAGE_CONFIG_FILE} или для обновления агента (распакуйте новый пакет поверх старого):

${st.restart}

Мастер в консоли покажет, когда агент снова выйдет на связь. Состояние и журнал:

${st.status}

В Windows: распакуйте (\`tar -xzf ${folder}.tar.gz\`), измените файл (шаг 1) и в PowerShell, открытом от имени
администратора, в этой папке выполните

${st.windows}

Агент станет заданием планировщика при запуске системы (от имени SYSTEM, перезапуск каждую минуту, если он
остановился), журнал — в agent-data\\agent.log. После изменения файла выполните команду ещё раз (перезапуск);
с \`-Remove\` задание удаляется.

Сборка агента ${build}.
`;
  }
  return `# Hashfield agent of the farm ${input.agentName} (${input.agentKey})

This package runs the farm's agent on a computer (NUC) in the same network as the miners. It scans the
farm's IP ranges, reads the miners and reports to ${input.serverUrl}.

Computer, per 10,000 miners: 4 CPU cores, 16 GB RAM, 100 GB disk, 20 Mbit/s; fewer than 20,000 miners per
computer; ping under 100 ms to the miners and under 200 ms to the server. Needs Node.js 20 or newer
(\`node --version\`); agent.js is the whole agent, nothing else to install.
Also in Chinese (README.zh-CN.md) and Russian (README.ru.md).

## 1. Change the file

Put the farm's agent secret (shown once by the console, in the add-farm wizard or the farm dialog; "show a
new secret" there gives a new one) in \`"secret"\` of ${PACKAGE_CONFIG_FILE}:

${st.config}

Change "server" if this computer reaches the server at another address.

## 2. Try it

    node agent.js

It prints what it finds; Ctrl+C stops it. Options on the command line win over the file
(\`node agent.js --help\`).

## 3. Install it as a service (Linux, systemd)

${st.install}

## 4. Restart the service

After changing ${PACKAGE_CONFIG_FILE}, or to update the agent (unpack a new package over the old one):

${st.restart}

The console's wizard shows when the agent reports again. Status and log:

${st.status}

On Windows: unpack (\`tar -xzf ${folder}.tar.gz\`), change the file (step 1), then in a PowerShell opened as
administrator, in this folder, run

${st.windows}

It installs the agent as a scheduled task at start-up (as SYSTEM, restarted every minute if it stops), with its log in
agent-data\\agent.log. Run it again after changing the file (a restart); add \`-Remove\` to remove the task.

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
    { name: `${folder}/${AGENT_WINDOWS_INSTALLER}`, data: windowsInstaller(input), mode: 0o644 },
    { name: `${folder}/README.md`, data: readme(input, folder, bundle.hash), mode: 0o644 },
    { name: `${folder}/README.zh-CN.md`, data: readme(input, folder, bundle.hash, 'zh-CN'), mode: 0o644 },
    { name: `${folder}/README.ru.md`, data: readme(input, folder, bundle.hash, 'ru'), mode: 0o644 },
    { name: `${folder}/package.json`, data: `${JSON.stringify({ name: 'hashfield-agent', private: true, type: 'commonjs', scripts: { start: 'node agent.js' } }, null, 2)}\n`, mode: 0o644 },
  ]);
  return { fileName: `${folder}.tar.gz`, archive, build: bundle.hash, source: bundle.source, buildMs: bundle.buildMs };
}
