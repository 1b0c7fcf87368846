/**
 * The main authenticated layout (spec 1 §2.1–2.3): header, collapsible sidebar (230 / 80 px; folded by
 * default below the lg breakpoint; a drawer on phones) and the content area where lazy pages render.
 */
import { AppShell, Drawer, Group, ScrollArea, Stack, em, useMantineTheme } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { PERMISSION } from '@shared/menu-catalogue';
import type { CurrentUser } from '@shared/schemas/auth';
import { setAgentKey } from '@client/lib/agent-key';
import { lazyWithRetry } from '@client/lib/import-retry';
import { sessionKeys, usePermissions, usePublicConfig, useSelfManage, useUserMenus } from '@client/lib/session-api';
import { ShellActionsContext } from '@client/lib/shell-actions';
import { BrandMark } from '@client/components/brand-mark';
import { LanguageSwitcher } from '@client/components/language-switcher';
import { PageLoading } from '@client/components/page-loading';
import { RegionSelect } from '@client/features/shell/components/region-select';
import { SIDEBAR_FOLDED_WIDTH, SIDEBAR_WIDTH, entryForPath, sidebarSections, staysOnFarmSwitch } from '@client/features/shell/sidebar-model';
import { hasRouteComponent } from '../route-components';
import { SessionGate } from '../session-gate';
import { AppHeader } from './app-header';

// The sidebar (and its icon set) loads on demand: a desktop renders it at once, a phone only when the drawer opens.
const AppSidebar = lazyWithRetry(() => import('@client/features/shell/components/app-sidebar'), (m) => m.AppSidebar);
const SidebarNav = lazyWithRetry(() => import('@client/features/shell/components/app-sidebar'), (m) => m.SidebarNav);
const FarmFormDialog = lazyWithRetry(() => import('@client/features/farms/components/farm-form-dialog'), (m) => m.FarmFormDialog);

export const HEADER_HEIGHT = 56;

/** Folded unless the user toggled it at this breakpoint: default folded below lg (spec 1 §2.3). */
export function useSidebarFold(belowLg: boolean): [boolean, () => void] {
  const [override, setOverride] = useState<{ belowLg: boolean; folded: boolean } | null>(null);
  const folded = override && override.belowLg === belowLg ? override.folded : belowLg;
  return [folded, () => setOverride({ belowLg, folded: !folded })];
}

function usePageTitle() {
  const { t, i18n } = useTranslation(['menu', 'shell']);
  const location = useLocation();
  useEffect(() => {
    const entry = entryForPath(location.pathname);
    const page = entry ? t(`menu:${entry.key}`) : location.pathname === '/user/center' ? t('shell:user.center') : null;
    document.title = page ? `${page} · Hashfield` : 'Hashfield';
  }, [location.pathname, t, i18n.language]);
}

function Shell({ user }: { user: CurrentUser }) {
  const theme = useMantineTheme();
  const phone = useMediaQuery(`(max-width: ${em(parseFloat(theme.breakpoints.sm) * 16 - 0.1)})`, false, { getInitialValueInEffect: false }) ?? false;
  const belowLg = useMediaQuery(`(max-width: ${em(parseFloat(theme.breakpoints.lg) * 16 - 0.1)})`, false, { getInitialValueInEffect: false }) ?? false;
  const [folded, toggleFold] = useSidebarFold(belowLg);
  const [drawerOpened, drawer] = useDisclosure(false);
  const [newFarmOpened, setNewFarmOpened] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const config = usePublicConfig();
  const menus = useUserMenus();
  const selfManage = useSelfManage();
  const perms = usePermissions();
  usePageTitle();

  const selfMiners = Boolean(menus.data?.selfMiners || selfManage.data);
  const sections = useMemo(() => sidebarSections(menus.data?.menus ?? [], { selfMiners, hasComponent: hasRouteComponent }), [menus.data, selfMiners]);
  const canCreateFarm = user.isAdmin || perms.has(PERMISSION.farmOperations);

  const actions = useMemo(() => ({ openNewFarm: () => setNewFarmOpened(true), sections }), [sections]);

  const handleNewFarmClosed = (result?: { agentKey: string }) => {
    setNewFarmOpened(false);
    if (!result) return;
    void queryClient.invalidateQueries({ queryKey: sessionKeys.farms });
    setAgentKey(result.agentKey);
    if (!staysOnFarmSwitch(location.pathname)) navigate('/');
  };

  const navbarWidth = folded ? SIDEBAR_FOLDED_WIDTH : SIDEBAR_WIDTH;
  return (
    <ShellActionsContext.Provider value={actions}>
      <AppShell
        header={{ height: HEADER_HEIGHT }}
        navbar={{ width: navbarWidth, breakpoint: 'sm', collapsed: { mobile: true, desktop: false } }}
        padding={phone ? 'sm' : 'md'}
        data-testid="app-shell"
        data-sidebar={phone ? 'drawer' : folded ? 'folded' : 'expanded'}
      >
        <AppShell.Header>
          <AppHeader
            user={user}
            phone={phone}
            wide={!belowLg}
            drawerOpened={drawerOpened}
            onBurger={drawer.toggle}
            onNewFarm={() => setNewFarmOpened(true)}
            canCreateFarm={canCreateFarm}
            promoUrl={config.data?.promoUrl ?? null}
          />
        </AppShell.Header>
        {!phone && (
          <AppShell.Navbar data-testid="sidebar" style={{ display: 'flex', flexDirection: 'column' }}>
            <Suspense fallback={null}>
              <AppSidebar sections={sections} folded={folded} onToggle={toggleFold} />
            </Suspense>
          </AppShell.Navbar>
        )}
        <AppShell.Main>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </AppShell.Main>
      </AppShell>
      {phone && (
        <Drawer
          opened={drawerOpened}
          onClose={drawer.close}
          size={280}
          padding="sm"
          title={<BrandMark />}
          data-testid="sidebar-drawer"
          scrollAreaComponent={ScrollArea.Autosize}
        >
          <Stack gap="sm">
            <Group gap="xs" wrap="nowrap">
              <RegionSelect />
              <LanguageSwitcher />
            </Group>
            <Suspense fallback={<PageLoading />}>
              <SidebarNav sections={sections} folded={false} onNavigate={drawer.close} />
            </Suspense>
          </Stack>
        </Drawer>
      )}
      {newFarmOpened && (
        <Suspense fallback={null}>
          <FarmFormDialog opened={newFarmOpened} onClose={handleNewFarmClosed} />
        </Suspense>
      )}
    </ShellActionsContext.Provider>
  );
}

export function AppLayout() {
  return <SessionGate>{(user) => <Shell user={user} />}</SessionGate>;
}

/** Pages with useLayout:false (e.g. /miner/probes): behind login, without header and sidebar. */
export function BareLayout() {
  return (
    <SessionGate>
      {() => (
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      )}
    </SessionGate>
  );
}
