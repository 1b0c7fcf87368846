/**
 * The phone landing decided by the bootstrap (main.tsx), before any app loads. Lives in lib because the console's
 * logout and the field app both use the key.
 */

/** localStorage key of the field app's copy of the user and their farms (field-app/field-session.ts). */
export const FIELD_SESSION_KEY = 'hf.field-session';

/** The console's phone breakpoint (Mantine `sm`), as the console's landing uses it. */
const PHONE_QUERY = '(max-width: 767.9px)';

/**
 * The phone landing, decided before any app loads: a page load at / on a phone whose field app has run before
 * (its copy of the user holds at least one farm) opens /field straight away — no console start and reload in
 * between, and it works offline whatever the console's caches hold. Without that copy the console decides
 * (app/menu-route.tsx: field permission and farms).
 */
export function landsOnField(pathname: string, storage: Pick<Storage, 'getItem'> | null, isPhone: boolean): boolean {
  if (pathname !== '/' || !isPhone || !storage) return false;
  try {
    const copy = JSON.parse(storage.getItem(FIELD_SESSION_KEY) ?? 'null') as { farms?: unknown } | null;
    return Array.isArray(copy?.farms) && copy.farms.length > 0;
  } catch {
    return false;
  }
}

export function isPhoneScreen(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(PHONE_QUERY).matches;
}
