/**
 * One catalogue page behind its permission key (spec 1 §6): the 403 page when the user lacks it on the
 * selected farm. Hiding a menu is never the only guard: the server checks every call as well.
 */
import { Suspense, useEffect, useState } from 'react';
import { Navigate, useLocation, useRouteError } from 'react-router-dom';
import { type MenuEntry, findMenuByKey } from '@shared/menu-catalogue';
import { useCurrentUser, useFarmOptions, usePermissions, useUserMenus } from '@client/lib/session-api';
import { PageLoading } from '@client/components/page-loading';
import { ConnectionError } from '@client/features/errors/components/connection-error';
import { ForbiddenPage } from '@client/features/errors/routes/forbidden-page';
import { ROUTE_COMPONENTS } from './route-components';

/** Set once the first page of this document has rendered: only that first page may be the phone landing. */
let firstPageShown = false;
const FIELD_HOME = findMenuByKey('fieldHome');

/**
 * Phones land on the technician's home (/field) instead of the dashboard: once per page load (after login, or
 * when the installed app starts at /), only when the user holds the field permission and has a farm (without
 * one the dashboard's "create your first farm" is the useful page). Tapping the dashboard later stays there;
 * desktop keeps the console's dashboard. Returns 'field' | 'page' | 'wait' (farm list not known yet).
 */
function useLanding(entry: MenuEntry, has: (key: number) => boolean): 'field' | 'page' | 'wait' {
  const [candidate] = useState(
    () =>
      !firstPageShown &&
      entry.key === 'dashboard' &&
      FIELD_HOME !== undefined &&
      Boolean(ROUTE_COMPONENTS[FIELD_HOME.key]) &&
      has(FIELD_HOME.permission) &&
      typeof window.matchMedia === 'function' &&
      window.matchMedia('(max-width: 767.9px)').matches,
  );
  const farms = useFarmOptions(candidate);
  useEffect(() => {
    firstPageShown = true;
  }, []);
  if (!candidate || entry.key !== 'dashboard') return 'page';
  if (farms.data) return farms.data.length > 0 ? 'field' : 'page';
  if (farms.isError) return 'page';
  // Offline with no farm list in the persisted cache (the page that stored it went to /field before the cache was
  // written): the query waits for the network for ever. The field app opens from its own copy of the farms.
  return farms.fetchStatus === 'paused' ? 'field' : 'wait';
}

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
  return <AllowedPage entry={entry} has={perms.has} />;
}

function AllowedPage({ entry, has }: { entry: MenuEntry; has: (key: number) => boolean }) {
  const Page = ROUTE_COMPONENTS[entry.key];
  const landing = useLanding(entry, has);
  if (landing === 'wait') return <PageLoading />;
  if (landing === 'field' && FIELD_HOME) return <Navigate to={FIELD_HOME.path} replace />;
  if (!Page) return <Navigate to="/" replace />;
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
