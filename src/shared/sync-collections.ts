/**
 * The synced collections and page sizes of GET /api/sync/<collection> (schemas/sync.ts has the wire schema).
 * Kept free of zod so the technician's first load does not pull the validation library.
 */
export const SYNC_COLLECTIONS = ['miners', 'customers'] as const;
export type SyncCollection = (typeof SYNC_COLLECTIONS)[number];

export const SYNC_PAGE_MAX = 5000;
export const SYNC_PAGE_DEFAULT = 2000;

/** Row shapes of the feed's answer: 'objects' (rows as objects, the default) or 'columns' (`columns` + rows as arrays). */
export const SYNC_FORMATS = ['objects', 'columns'] as const;
export type SyncFormat = (typeof SYNC_FORMATS)[number];
