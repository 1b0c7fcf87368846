/** The DataTable's loading / error / retry props from a TanStack query, for lists fed by one query. */
export interface QueryLike {
  isFetching: boolean;
  isError: boolean;
  error: unknown;
  refetch: () => Promise<unknown>;
}

export function queryTableState(query: QueryLike): { loading: boolean; error: unknown; onRetry: () => void } {
  return { loading: query.isFetching, error: query.isError ? query.error : undefined, onRetry: () => void query.refetch() };
}
