/**
 * The one table of every page of the console (spec 1 §2.4 and the "titles only" pages).
 * The client router, the sidebar, the route guards and the server's /api/role/userAgentMenus
 * are all derived from it. `permission` is the numeric menu key; `operation` the hidden key
 * that guards actions on the page (spec 1 §2.4: "a separate hidden operation key").
 *
 * `group` is the sidebar group. Entries of group 'defaults' do not depend on the selected farm:
 * switching farm while on one of them stays on the page (spec 1 §2.3); any other group navigates to '/'.
 */
export type MenuSection =
  | 'overview'
  | 'minerMonitoring'
  | 'miningIncome'
  | 'infrastructure'
  | 'assetManagement'
  | 'opsManagement'
  | 'farms'
  | 'statistics'
  | 'accountSecurity'
  | 'settings';

export interface MenuEntry {
  /** Stable key, also the i18n key `menu:<key>`. */
  key: string;
  path: string;
  section: MenuSection;
  /** Sidebar group; 'defaults' = farm-independent page. */
  group: 'defaults' | 'farm';
  permission: number;
  operation: number;
  /** Tabler icon name (client maps it). */
  icon: string;
  /** Shown only for self-run farms (selfMiners). */
  selfMiner?: boolean;
  /** In the route table but not in the sidebar. */
  hidden?: boolean;
  /** false = rendered without the main layout. */
  useLayout?: boolean;
  /** Path of the sidebar entry to highlight (for hidden detail pages). */
  activePath?: string;
  /** Parent entry key for nested menus. */
  parent?: string;
  /** The page also answers `<path>/:tab` (spec 2: /setting/agent/pool/{tab}). */
  tabs?: boolean;
}

const e = (
  key: string,
  path: string,
  section: MenuSection,
  permission: number,
  icon: string,
  extra: Partial<MenuEntry> = {},
): MenuEntry => ({
  key,
  path,
  section,
  group: 'farm',
  permission,
  operation: permission + 500,
  icon,
  useLayout: true,
  ...extra,
});

export const MENU_SECTIONS: readonly MenuSection[] = [
  'overview',
  'minerMonitoring',
  'miningIncome',
  'infrastructure',
  'assetManagement',
  'opsManagement',
  'farms',
  'statistics',
  'accountSecurity',
  'settings',
];

export const MENU_CATALOGUE: readonly MenuEntry[] = [
  // Overview
  e('dashboard', '/', 'overview', 1000, 'dashboard'),
  e('brochure', '/brochure', 'overview', 1100, 'book'),
  e('newMining', '/newMining', 'overview', 1200, 'building-factory-2'),
  e('dataDrive', '/dashboard/dataDrive', 'overview', 1300, 'chart-dots', { hidden: true }),
  // Miner monitoring
  e('minerList', '/device/miner', 'minerMonitoring', 10000, 'cpu'),
  e('minerDetail', '/device/miner/detail', 'minerMonitoring', 10100, 'cpu', { hidden: true, activePath: '/device/miner', parent: 'minerList' }),
  e('offShelfRecords', '/device/miners', 'minerMonitoring', 11000, 'archive'),
  e('minerProbes', '/miner/probes', 'minerMonitoring', 12000, 'radar', { useLayout: false, hidden: true }),
  e('abnormalAlarms', '/alarm/security', 'minerMonitoring', 13000, 'alert-triangle'),
  e('alarmList', '/alarm/list', 'minerMonitoring', 13100, 'list', { hidden: true }),
  e('opsDailyReport', '/assets/assetsReport', 'minerMonitoring', 14000, 'report'),
  // The technician's phone workflow (issue 5): search and scan, miner card, recent miners — offline from the cache.
  e('fieldHome', '/field', 'minerMonitoring', 15000, 'scan'),
  e('fieldMiner', '/field/miner', 'minerMonitoring', 15100, 'device-mobile', { hidden: true, activePath: '/field', parent: 'fieldHome' }),
  // Mining income
  e('miningIncome', '/income/miningIncoming', 'miningIncome', 20000, 'coin'),
  e('earningsEstimate', '/statistics/earnings', 'miningIncome', 21000, 'calculator'),
  e('incomeByCoin', '/income/list', 'miningIncome', 22000, 'currency-bitcoin'),
  e('incomeDetail', '/income/list/detail', 'miningIncome', 22100, 'file-text', { hidden: true, activePath: '/income/list', parent: 'incomeByCoin' }),
  e('autoIncomeTuning', '/auto/autoIncomeTuning', 'miningIncome', 23000, 'adjustments-bolt'),
  e('electricityIncome', '/income/electricity', 'miningIncome', 24000, 'bolt', { hidden: true }),
  // Infrastructure
  e('antspace', '/antspace', 'infrastructure', 30000, 'container'),
  e('antBox', '/antBox', 'infrastructure', 30100, 'box', { hidden: true }),
  e('infraTemperature', '/infras/temperature', 'infrastructure', 31000, 'temperature'),
  e('infraHumidity', '/infras/humidity', 'infrastructure', 32000, 'droplet'),
  e('infraDevices', '/infras/devices', 'infrastructure', 33000, 'device-desktop-analytics'),
  e('infraElectricSupply', '/infras/electriSupply', 'infrastructure', 34000, 'plug', { hidden: true }),
  e('infraGraph', '/infras/graph', 'infrastructure', 34100, 'chart-line', { hidden: true }),
  e('infraMinerEnv', '/infras/minerEnv', 'infrastructure', 34200, 'wind', { hidden: true }),
  e('infraMonitor', '/infras/monitor', 'infrastructure', 34300, 'video', { hidden: true }),
  e('infraWaterSupply', '/infras/waterSupply', 'infrastructure', 34400, 'ripple', { hidden: true }),
  // Asset management
  e('rfidList', '/assets/rfid/list', 'assetManagement', 40000, 'nfc'),
  e('rfidInventory', '/assets/rfid/inventory', 'assetManagement', 40100, 'clipboard-list'),
  e('rfidView', '/assets/rfid/view', 'assetManagement', 40200, 'eye'),
  e('assetList', '/assets/list', 'assetManagement', 41000, 'packages'),
  e('repairRecords', '/assets/repairRecord', 'assetManagement', 42000, 'tool'),
  e('inventory', '/assets/inventory', 'assetManagement', 43000, 'clipboard-check'),
  e('assetSettings', '/assets/setting', 'assetManagement', 44000, 'settings'),
  e('warranty', '/assets/warranty', 'assetManagement', 45000, 'shield-check'),
  e('dailyAssetEntry', '/assets/daily-asset-entry', 'assetManagement', 46000, 'edit', { hidden: true }),
  e('assetDailyReport', '/assets/daily-report', 'assetManagement', 46100, 'report-analytics', { hidden: true }),
  e('operationsDaily', '/assets/operations-daily', 'assetManagement', 46200, 'calendar-stats', { hidden: true }),
  // Ops management (self-run farms only)
  e('attendance', '/result/attendance', 'opsManagement', 50000, 'user-check', { selfMiner: true }),
  e('serviceTicks', '/service/ticks', 'opsManagement', 50100, 'ticket', { hidden: true, selfMiner: true }),
  // Farms
  e('agentList', '/agents', 'farms', 60000, 'building-warehouse', { group: 'defaults' }),
  e('hostInfo', '/agents/hostInfo', 'farms', 60100, 'server', { group: 'defaults' }),
  e('hostInfoDetail', '/agents/hostInfo/detail', 'farms', 60200, 'server-2', { group: 'defaults', hidden: true, activePath: '/agents/hostInfo', parent: 'hostInfo' }),
  e('electricityPrice', '/agents/electricityPrice', 'farms', 60300, 'bolt', { hidden: true }),
  e('energizationPlan', '/agents/energizationPlan', 'farms', 60400, 'calendar-bolt', { hidden: true }),
  e('hostingPrice', '/agents/hostingPrice', 'farms', 62000, 'receipt', { hidden: true }),
  e('observer', '/agents/observer', 'farms', 62100, 'binoculars', { hidden: true }),
  // Statistics
  e('statisticalReports', '/statistics/statisticalReports', 'statistics', 70000, 'chart-bar'),
  e('hashrateCompare', '/statistics/compare', 'statistics', 71000, 'chart-arrows'),
  e('dailyReport', '/statistics/dailyReport', 'statistics', 72000, 'calendar'),
  e('hashrateOverview', '/device/hash', 'statistics', 73000, 'chart-area-line'),
  e('modelStatistics', '/statistics/deviceType', 'statistics', 74000, 'chart-pie'),
  // Account security
  e('accountSecurity', '/safety/accountSecurity', 'accountSecurity', 64000, 'lock', { group: 'defaults' }),
  e('customers', '/setting/customer', 'accountSecurity', 61000, 'users-group'),
  e('users', '/setting/user', 'accountSecurity', 66000, 'user-cog', { group: 'defaults' }),
  e('roles', '/setting/role', 'accountSecurity', 65000, 'shield-lock', { group: 'defaults' }),
  e('logAndRecord', '/setting/logAndRecord', 'accountSecurity', 67000, 'history'),
  e('logAll', '/log/all', 'accountSecurity', 67100, 'list-details', { hidden: true }),
  e('logPool', '/log/pool', 'accountSecurity', 67200, 'list-search', { hidden: true }),
  // Settings
  e('farmSettings', '/setting/agent/agent', 'settings', 80000, 'settings-2'),
  e('poolSettings', '/setting/agent/pool', 'settings', 81000, 'pool', { tabs: true }),
  e('scanIpRanges', '/setting/agent/ip', 'settings', 82000, 'network'),
  e('subAreas', '/setting/agent/subArea', 'settings', 83000, 'sitemap'),
  e('subIp', '/setting/agent/subIp', 'settings', 83100, 'route'),
  e('shelves', '/setting/agent/shelf', 'settings', 84000, 'stack-2'),
  e('alarmSettings', '/alarm/setting', 'settings', 85000, 'bell-cog'),
  e('autoReboot', '/auto/autoReboot', 'settings', 86000, 'refresh'),
  e('autoPassword', '/auto/password', 'settings', 86100, 'key'),
  e('autoFirmware', '/auto/firmware', 'settings', 86200, 'upload'),
  e('batchOnline', '/setting/agent/online', 'settings', 87000, 'switch-horizontal'),
  e('unshelveMaintain', '/unshelve-miner/maintain', 'settings', 88000, 'tools'),
  e('unshelveMaintainAlt', '/unshelveMiner/maintain', 'settings', 88100, 'tools', { hidden: true }),
  e('noticeSettings', '/setting/notice', 'settings', 89000, 'speakerphone', { hidden: true }),
];

/** Miner monitoring: reading needs 10000, operating needs 10500 (spec 1 §6). */
export const PERMISSION = {
  miners: 10000,
  minerOperations: 10500,
  customers: 61000,
  customerOperations: 61500,
  roles: 65000,
  roleOperations: 65500,
  users: 66000,
  userOperations: 66500,
  farms: 60000,
  farmOperations: 60500,
  farmSettings: 80000,
  farmSettingsOperations: 80500,
  hostInfo: 60100,
  dashboard: 1000,
} as const;

/** Every permission key a role can hold: each entry's menu key and its operation key. */
export const ALL_PERMISSION_KEYS: readonly number[] = [
  ...new Set(MENU_CATALOGUE.flatMap((m) => [m.permission, m.operation])),
].sort((a, b) => a - b);

export function findMenuByPath(path: string): MenuEntry | undefined {
  return MENU_CATALOGUE.find((m) => m.path === path);
}

export function findMenuByKey(key: string): MenuEntry | undefined {
  return MENU_CATALOGUE.find((m) => m.key === key);
}

/** Menu node as /api/role/userAgentMenus answers it (spec 1 §3). */
export interface MenuNode {
  key: string;
  name: string;
  path: string;
  activePath?: string;
  icon: string;
  routes: MenuNode[];
  hidden: boolean;
  useLayout: boolean;
  isShowSideBar: boolean;
  selfMiner: boolean;
  sidebar: string;
  permission: number;
  operation: number;
}

/**
 * Builds the menu tree for a user: one node per section holding the entries the user may see.
 * Visibility: the user holds the entry's permission key; self-miner entries need selfMiners.
 */
export function buildMenuTree(
  permissions: ReadonlySet<number>,
  opts: { selfMiners: boolean },
): MenuNode[] {
  const visible = MENU_CATALOGUE.filter(
    (m) => permissions.has(m.permission) && (!m.selfMiner || opts.selfMiners),
  );
  const toNode = (m: MenuEntry): MenuNode => ({
    key: m.key,
    name: `menu:${m.key}`,
    path: m.path,
    ...(m.activePath ? { activePath: m.activePath } : {}),
    icon: m.icon,
    routes: visible.filter((c) => c.parent === m.key).map(toNode),
    hidden: Boolean(m.hidden),
    useLayout: m.useLayout !== false,
    isShowSideBar: m.useLayout !== false,
    selfMiner: Boolean(m.selfMiner),
    sidebar: m.group,
    permission: m.permission,
    operation: m.operation,
  });
  return MENU_SECTIONS.map((section) => {
    const entries = visible.filter((m) => m.section === section && !m.parent);
    return {
      key: section,
      name: `menu:section.${section}`,
      path: '',
      icon: '',
      routes: entries.map(toNode),
      hidden: entries.every((x) => x.hidden),
      useLayout: true,
      isShowSideBar: true,
      selfMiner: false,
      sidebar: entries[0]?.group ?? 'farm',
      permission: 0,
      operation: 0,
    };
  }).filter((n) => n.routes.length > 0);
}
