/**
 * Menu key → lazy page component. The router, the sidebar and the guards use only catalogue entries that
 * appear here: a page that is not built yet is not routed and not shown in the sidebar (no placeholders).
 * Later issues add their pages to this map.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

type Page = LazyExoticComponent<ComponentType>;

export const ROUTE_COMPONENTS: Readonly<Record<string, Page>> = {
  dashboard: lazy(() => import('@client/features/dashboard/routes/dashboard-page').then((m) => ({ default: m.DashboardPage }))),
  agentList: lazy(() => import('@client/features/farms/routes/farm-list-page').then((m) => ({ default: m.FarmListPage }))),
  hostInfo: lazy(() => import('@client/features/farms/routes/host-info-page').then((m) => ({ default: m.HostInfoPage }))),
  hostInfoDetail: lazy(() => import('@client/features/farms/routes/host-info-detail-page').then((m) => ({ default: m.HostInfoDetailPage }))),
  farmSettings: lazy(() => import('@client/features/farms/routes/farm-settings-page').then((m) => ({ default: m.FarmSettingsPage }))),
  users: lazy(() => import('@client/features/users/routes/users-page').then((m) => ({ default: m.UsersPage }))),
  roles: lazy(() => import('@client/features/roles/routes/roles-page').then((m) => ({ default: m.RolesPage }))),
  accountSecurity: lazy(() => import('@client/features/account/routes/account-security-page').then((m) => ({ default: m.AccountSecurityPage }))),
  scanIpRanges: lazy(() => import('@client/features/scan-ip/routes/scan-ip-page').then((m) => ({ default: m.ScanIpPage }))),
  customers: lazy(() => import('@client/features/hosting/routes/customers-page').then((m) => ({ default: m.CustomersPage }))),
  poolSettings: lazy(() => import('@client/features/hosting/routes/pool-settings-page').then((m) => ({ default: m.PoolSettingsPage }))),
  minerList: lazy(() => import('@client/features/miners/routes/miner-list-page').then((m) => ({ default: m.MinerListPage }))),
  minerDetail: lazy(() => import('@client/features/miners/routes/miner-detail-page').then((m) => ({ default: m.MinerDetailPage }))),
  modelStatistics: lazy(() => import('@client/features/miners/routes/model-stats-page').then((m) => ({ default: m.ModelStatsPage }))),
  subAreas: lazy(() => import('@client/features/sub-areas/routes/sub-areas-page').then((m) => ({ default: m.SubAreasPage }))),
  subIp: lazy(() => import('@client/features/sub-areas/routes/sub-ip-page').then((m) => ({ default: m.SubIpPage }))),
  newMining: lazy(() => import('@client/features/farm-setup/routes/new-mining-page').then((m) => ({ default: m.NewMiningPage }))),
  hashrateOverview: lazy(() => import('@client/features/miners/routes/hashrate-overview-page').then((m) => ({ default: m.HashrateOverviewPage }))),
  offShelfRecords: lazy(() => import('@client/features/miners/routes/off-shelf-page').then((m) => ({ default: m.OffShelfPage }))),
  minerProbes: lazy(() => import('@client/features/miners/routes/miner-probes-page').then((m) => ({ default: m.MinerProbesPage }))),
  fieldHome: lazy(() => import('@client/features/field/routes/field-home-page').then((m) => ({ default: m.FieldHomePage }))),
  fieldMiner: lazy(() => import('@client/features/field/routes/field-miner-page').then((m) => ({ default: m.FieldMinerPage }))),
};

/** Pages that also answer `<path>/:<param>` (the catalogue's paths have no parameters): /field/miner/:minerId. */
export const ROUTE_PARAMS: Readonly<Record<string, string>> = {
  fieldMiner: 'minerId',
};

export function hasRouteComponent(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(ROUTE_COMPONENTS, key);
}
