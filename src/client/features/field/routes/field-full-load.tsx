/**
 * The console's routes for /field and /field/miner/:minerId (menu entries fieldHome and fieldMiner): the
 * technician's pages are the light field app (src/client/field-app), so arriving here inside the console
 * (sidebar, the phone landing, a link) loads the address afresh and main.tsx starts the field app.
 */
import { useEffect } from 'react';
import { PageLoading } from '@client/components/page-loading';
import { isLeaving } from '../lib/field-paths';

export function FieldFullLoad() {
  useEffect(() => {
    // Another navigation is already under way (the user went elsewhere): it wins.
    if (isLeaving()) return;
    const { pathname, search } = window.location;
    // replace: Back from the field app returns to the console page that linked here, not to this hop.
    window.location.replace(`${pathname}${search}`);
  }, []);
  return <PageLoading />;
}
