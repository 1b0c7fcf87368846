/**
 * One catalogue page behind its permission key (spec 1 §6): the 403 page when the user lacks it on the
 * selected farm. Hiding a menu is never the only guard: the server checks every call as well.
 */
import { Suspense, useEffect } from 'react';
import { Navigate, useLocation, useRouteError } from 'react-router-dom';
import type { MenuEntry } from '@shared/menu-catalogue';
import { useCurrentUser, usePermissions, useUserMenus } from '@client/lib/session-api';
import { PageLoading } from '@client/components/page-loading';
import { ConnectionError } from '@client/features/errors/components/connection-error';
import { ForbiddenPage } from '@client/features/errors/routes/forbidden-page';
import { ROUTE_COMPONENTS } from './route-components';

export function MenuRoute({ entry }: { entry: MenuEntry }) {
  const Page = ROUTE_COMPONENTS[entry.key];
  const user = useCurrentUser();
  const menus = useUserMenus();
  const perms = usePermissions();
  if (!Page) return <Navigate to="/" replace />;
  if (!perms.loaded && !user.data?.isAdmin) {
    if (menus.isError) return <ConnectionError onRetry={() => void menus.refetch()} fullHeight={false} />;
    return <PageLoading />;
  }
  if (!perms.has(entry.permission)) return <ForbiddenPage />;
  return (
    <Suspense fallback={<PageLoading />}>
      <Page />
    </Suspense>
  );
}

/** errorElement of the pages: a generic failure inside a page goes to the 500 page (spec 1 §2.1). */
export function PageErrorRedirect() {
  const error = useRouteError();
  const location = useLocation();
  useEffect(() => {
    console.error('page failed', error);
  }, [error]);
  return <Navigate to="/500" replace state={{ from: location.pathname + location.search }} />;
}
