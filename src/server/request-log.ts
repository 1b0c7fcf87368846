/**
 * What a request's log line says of it: Fastify's own fields with the query string's values masked, except a few
 * that identify the page asked for. A query can carry what must not reach a log file: an observer link with the
 * pool's access key (GET /api/subAccountV2/testObserverUrl), a search term typed by a user.
 */
import type { FastifyRequest } from 'fastify';

/** Query parameters whose values a log line keeps. */
const LOGGED_QUERY: ReadonlySet<string> = new Set(['agentKey', 'page', 'pageSize', 'sort', 'order']);

/** The URL as logged: its path, and its query's names with only the values of LOGGED_QUERY. */
export function urlForLog(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const parts: string[] = [];
  for (const [k, v] of new URLSearchParams(url.slice(at + 1))) parts.push(`${encodeURIComponent(k)}=${LOGGED_QUERY.has(k) ? encodeURIComponent(v) : '***'}`);
  return `${url.slice(0, at)}?${parts.join('&')}`;
}

/** Fastify's request serializer (method, url, host, remote address and port) with urlForLog. */
export function requestForLog(req: FastifyRequest): Record<string, unknown> {
  return { method: req.method, url: urlForLog(req.url), host: req.host, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}
