/**
 * The route table (spec 1 §2): derived from MENU_CATALOGUE and ROUTE_COMPONENTS. Top level: /500 and /email
 * without layout; the pre-login screens; useLayout:false pages behind login without layout; everything else
 * inside the main layout. Unknown paths go to / when a farm is selected, else to /agents.
 */
import { Navigate, Outlet, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { MENU_CATALOGUE } from '@shared/menu-catalogue';
import { useAgentKey } from '@client/lib/agent-key';
import { useFarmOptions } from '@client/lib/session-api';
import { PageLoading } from '@client/components/page-loading';
import { LoginErrorPage } from '@client/features/auth/routes/login-error-page';
import { LoginPage } from '@client/features/auth/routes/login-page';
import { SetupPage } from '@client/features/auth/routes/setup-page';
import { UserCenterPage } from '@client/features/auth/routes/user-center-page';
import { ForbiddenPage } from '@client/features/errors/routes/forbidden-page';
import { NotFoundPage } from '@client/features/errors/routes/not-found-page';
import { ServerErrorPage } from '@client/features/errors/routes/server-error-page';
import { EmailPage } from '@client/features/notifications/routes/email-page';
import { AppLayout, BareLayout } from './layout/app-layout';
import { MenuRoute, PageErrorRedirect } from './menu-route';
import { hasRouteComponent } from './route-components';
import { Telemetry } from './telemetry';

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
    (entry.tabs ? [entry.path, `${entry.path}/:tab`] : [entry.path]).map((path) => ({
      path,
      element: <MenuRoute entry={entry} />,
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
