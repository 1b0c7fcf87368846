/**
 * The route table (spec 1 §2): derived from MENU_CATALOGUE and ROUTE_COMPONENTS. Top level: /500 and /email
 * without layout; the pre-login screens; useLayout:false pages behind login without layout; everything else
 * inside the main layout. Unknown paths go to / when a farm is selected, else to /agents.
 */
import { type ComponentType, Suspense } from 'react';
import { Navigate, Outlet, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { MENU_CATALOGUE } from '@shared/menu-catalogue';
import { useAgentKey } from '@client/lib/agent-key';
import { lazyWithRetry } from '@client/lib/import-retry';
import { useFarmOptions } from '@client/lib/session-api';
import { FullScreenLoader, PageLoading } from '@client/components/page-loading';
import { ForbiddenPage } from '@client/features/errors/routes/forbidden-page';
import { NotFoundPage } from '@client/features/errors/routes/not-found-page';
import { ServerErrorPage } from '@client/features/errors/routes/server-error-page';
import { AppLayout, BareLayout } from './layout/app-layout';
import { MenuRoute, PageErrorRedirect } from './menu-route';
import { ROUTE_PARAMS, hasRouteComponent } from './route-components';
import { Telemetry } from './telemetry';

/**
 * Screens outside the catalogue load on demand like the catalogue's pages, so the first chunk holds only what
 * every screen needs (the technician's phone start fits its budget): login, set-up, user center, e-mail link…
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType, fallback: 'page' | 'full' = 'full') {
  const Page = lazyWithRetry(load, pick);
  return function LazyPage() {
    return (
      <Suspense fallback={fallback === 'full' ? <FullScreenLoader /> : <PageLoading />}>
        <Page />
      </Suspense>
    );
  };
}

const LoginErrorPage = lazyPage(() => import('@client/features/auth/routes/login-error-page'), (m) => m.LoginErrorPage);
const LoginPage = lazyPage(() => import('@client/features/auth/routes/login-page'), (m) => m.LoginPage);
const SetupPage = lazyPage(() => import('@client/features/auth/routes/setup-page'), (m) => m.SetupPage);
const UserCenterPage = lazyPage(() => import('@client/features/auth/routes/user-center-page'), (m) => m.UserCenterPage, 'page');
const EmailPage = lazyPage(() => import('@client/features/notifications/routes/email-page'), (m) => m.EmailPage);
const PoolApprovalPage = lazyPage(() => import('@client/features/approvals/routes/pool-approval-page'), (m) => m.PoolApprovalPage, 'page');

function Root() {
  return (
    <>
      <Telemetry />
      <Outlet />
    </>
  );
}

/** Unknown path (spec 1 §2.1): / with a selected farm, else /agents. */
export function UnknownRoute() {
  const agentKey = useAgentKey();
  const farms = useFarmOptions();
  if (agentKey) return <Navigate to="/" replace />;
  if (farms.isPending && !farms.data) return <PageLoading />;
  if (farms.data && farms.data.length > 0) return <PageLoading />; // a farm is being selected
  return <Navigate to="/agents" replace />;
}

export function catalogueRoutes(useLayout: boolean): RouteObject[] {
  return MENU_CATALOGUE.filter((m) => hasRouteComponent(m.key) && (m.useLayout !== false) === useLayout).flatMap((entry) =>
    (entry.tabs ? [entry.path, `${entry.path}/:tab`] : ROUTE_PARAMS[entry.key] ? [entry.path, `${entry.path}/:${ROUTE_PARAMS[entry.key]}`] : [entry.path]).map((path) => ({
      path,
      // Keyed: another catalogue page is a new MenuRoute (no state carried over between pages).
      element: <MenuRoute key={entry.key} entry={entry} />,
      errorElement: <PageErrorRedirect />,
    })),
  );
}

export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <Root />,
      errorElement: <ServerErrorPage />,
      children: [
        { path: '/500', element: <ServerErrorPage /> },
        { path: '/email', element: <EmailPage /> },
        { path: '/setup', element: <SetupPage /> },
        { path: '/login', element: <LoginPage /> },
        { path: '/loginError', element: <LoginErrorPage /> },
        { element: <BareLayout />, children: catalogueRoutes(false) },
        {
          element: <AppLayout />,
          children: [
            ...catalogueRoutes(true),
            { path: '/user/center', element: <UserCenterPage />, errorElement: <PageErrorRedirect /> },
            { path: '/poolApproval', element: <PoolApprovalPage />, errorElement: <PageErrorRedirect /> },
            { path: '/403', element: <ForbiddenPage /> },
            { path: '/404', element: <NotFoundPage /> },
            { path: '*', element: <UnknownRoute /> },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
