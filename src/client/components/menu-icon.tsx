/** Maps the catalogue's Tabler icon names (src/shared/menu-catalogue.ts) to components. */
import {
  IconAdjustmentsBolt, IconAlertTriangle, IconArchive, IconBell, IconBinoculars, IconBolt, IconBook, IconBox, IconBuildingFactory2,
  IconBuildingWarehouse, IconCalculator, IconCalendar, IconCalendarBolt, IconCalendarStats, IconChartArcs, IconChartAreaLine,
  IconChartBar, IconChartDots, IconChartLine, IconChartPie, IconCircle, IconClipboardCheck, IconClipboardList, IconCoin, IconContainer,
  IconCpu, IconCurrencyBitcoin, IconDashboard, IconDeviceDesktopAnalytics, IconDroplet, IconEdit, IconEye, IconFileText, IconHistory,
  IconKey, IconList, IconListDetails, IconListSearch, IconLock, IconNetwork, IconNfc, IconPackages, IconPlug, IconPool, IconRadar,
  IconReceipt, IconRefresh, IconReport, IconReportAnalytics, IconRipple, IconRoute, IconServer, IconServer2, IconSettings, IconSettings2,
  IconShieldCheck, IconShieldLock, IconSitemap, IconSpeakerphone, IconStack2, IconSwitchHorizontal, IconTemperature, IconTicket,
  IconTool, IconTools, IconUpload, IconUserCheck, IconUserCog, IconUsersGroup, IconVideo, IconWind, type Icon,
} from '@tabler/icons-react';

const ICONS: Record<string, Icon> = {
  'adjustments-bolt': IconAdjustmentsBolt, 'alert-triangle': IconAlertTriangle, archive: IconArchive, 'bell-cog': IconBell,
  binoculars: IconBinoculars, bolt: IconBolt, book: IconBook, box: IconBox, 'building-factory-2': IconBuildingFactory2,
  'building-warehouse': IconBuildingWarehouse, calculator: IconCalculator, calendar: IconCalendar, 'calendar-bolt': IconCalendarBolt,
  'calendar-stats': IconCalendarStats, 'chart-arrows': IconChartArcs, 'chart-area-line': IconChartAreaLine, 'chart-bar': IconChartBar,
  'chart-dots': IconChartDots, 'chart-line': IconChartLine, 'chart-pie': IconChartPie, 'clipboard-check': IconClipboardCheck,
  'clipboard-list': IconClipboardList, coin: IconCoin, container: IconContainer, cpu: IconCpu, 'currency-bitcoin': IconCurrencyBitcoin,
  dashboard: IconDashboard, 'device-desktop-analytics': IconDeviceDesktopAnalytics, droplet: IconDroplet, edit: IconEdit, eye: IconEye,
  'file-text': IconFileText, history: IconHistory, key: IconKey, list: IconList, 'list-details': IconListDetails,
  'list-search': IconListSearch, lock: IconLock, network: IconNetwork, nfc: IconNfc, packages: IconPackages, plug: IconPlug, pool: IconPool,
  radar: IconRadar, receipt: IconReceipt, refresh: IconRefresh, report: IconReport, 'report-analytics': IconReportAnalytics,
  ripple: IconRipple, route: IconRoute, server: IconServer, 'server-2': IconServer2, settings: IconSettings, 'settings-2': IconSettings2,
  'shield-check': IconShieldCheck, 'shield-lock': IconShieldLock, sitemap: IconSitemap, speakerphone: IconSpeakerphone,
  'stack-2': IconStack2, 'switch-horizontal': IconSwitchHorizontal, temperature: IconTemperature, ticket: IconTicket, tool: IconTool,
  tools: IconTools, upload: IconUpload, 'user-check': IconUserCheck, 'user-cog': IconUserCog, 'users-group': IconUsersGroup,
  video: IconVideo, wind: IconWind,
};

export function menuIcon(name: string): Icon {
  return ICONS[name] ?? IconCircle;
}

export interface MenuIconProps {
  name: string;
  size?: number;
}

export function MenuIcon({ name, size = 20 }: MenuIconProps) {
  const Component = menuIcon(name);
  return <Component size={size} stroke={1.6} aria-hidden />;
}
