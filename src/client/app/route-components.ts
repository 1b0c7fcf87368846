/**
 * Menu key → lazy page component. The router, the sidebar and the guards use only catalogue entries that
 * appear here: a page that is not built yet is not routed and not shown in the sidebar (no placeholders).
 * Later issues add their pages to this map.
 */
import type { ComponentType, LazyExoticComponent } from 'react';
import { lazyWithRetry as page } from '@client/lib/import-retry';

/** Loaded on demand; a chunk lost on bad Wi-Fi is fetched again (importWithRetry) before the page's error goes to /500. */
type Page = LazyExoticComponent<ComponentType>;

export const ROUTE_COMPONENTS: Readonly<Record<string, Page>> = {
  dashboard: page(() => import('@client/features/dashboard/routes/dashboard-page'), (m) => m.DashboardPage),
  agentList: page(() => import('@client/features/farms/routes/farm-list-page'), (m) => m.FarmListPage),
  hostInfo: page(() => import('@client/features/farms/routes/host-info-page'), (m) => m.HostInfoPage),
  hostInfoDetail: page(() => import('@client/features/farms/routes/host-info-detail-page'), (m) => m.HostInfoDetailPage),
  farmSettings: page(() => import('@client/features/farms/routes/farm-settings-page'), (m) => m.FarmSettingsPage),
  users: page(() => import('@client/features/users/routes/users-page'), (m) => m.UsersPage),
  roles: page(() => import('@client/features/roles/routes/roles-page'), (m) => m.RolesPage),
  accountSecurity: page(() => import('@client/features/account/routes/account-security-page'), (m) => m.AccountSecurityPage),
  scanIpRanges: page(() => import('@client/features/scan-ip/routes/scan-ip-page'), (m) => m.ScanIpPage),
  customers: page(() => import('@client/features/hosting/routes/customers-page'), (m) => m.CustomersPage),
  poolSettings: page(() => import('@client/features/hosting/routes/pool-settings-page'), (m) => m.PoolSettingsPage),
  minerList: page(() => import('@client/features/miners/routes/miner-list-page'), (m) => m.MinerListPage),
  minerDetail: page(() => import('@client/features/miners/routes/miner-detail-page'), (m) => m.MinerDetailPage),
  modelStatistics: page(() => import('@client/features/miners/routes/model-stats-page'), (m) => m.ModelStatsPage),
  subAreas: page(() => import('@client/features/sub-areas/routes/sub-areas-page'), (m) => m.SubAreasPage),
  subIp: page(() => import('@client/features/sub-areas/routes/sub-ip-page'), (m) => m.SubIpPage),
  newMining: page(() => import('@client/features/farm-setup/routes/new-mining-page'), (m) => m.NewMiningPage),
  hashrateOverview: page(() => import('@client/features/miners/routes/hashrate-overview-page'), (m) => m.HashrateOverviewPage),
  offShelfRecords: page(() => import('@client/features/miners/routes/off-shelf-page'), (m) => m.OffShelfPage),
  batchOnline: page(() => import('@client/features/miners/routes/shelf-import-page'), (m) => m.ShelfImportPage),
  unshelveMaintain: page(() => import('@client/features/miners/routes/off-shelf-maintenance-page'), (m) => m.OffShelfMaintenancePage),
  unshelveMaintainAlt: page(() => import('@client/features/miners/routes/off-shelf-maintenance-page'), (m) => m.OffShelfMaintenancePage),
  abnormalAlarms: page(() => import('@client/features/security/routes/security-alarms-page'), (m) => m.SecurityAlarmsPage),
  minerProbes: page(() => import('@client/features/miners/routes/miner-probes-page'), (m) => m.MinerProbesPage),
  fieldHome: page(() => import('@client/features/field/routes/field-home-page'), (m) => m.FieldHomePage),
  fieldMiner: page(() => import('@client/features/field/routes/field-miner-page'), (m) => m.FieldMinerPage),
};

/** Pages that also answer `<path>/:<param>` (the catalogue's paths have no parameters): /field/miner/:minerId. */
export const ROUTE_PARAMS: Readonly<Record<string, string>> = {
  fieldMiner: 'minerId',
};

export function hasRouteComponent(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(ROUTE_COMPONENTS, key);
}
