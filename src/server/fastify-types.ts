import type { Locale } from '@shared/validation';
import type { ServerConfig } from './config';
import type { DB } from './db/kysely';
import type { UserRecord } from './db/schema';

/** What a route declares: the permission key (or public / authenticated / agent) and whether it is farm-scoped. */
export type RoutePermission = number | 'public' | 'authenticated' | 'agent';

export interface AgentPrincipal {
  agentKey: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    permission?: RoutePermission;
    /** agentKey (query, body or header) must name a farm the user belongs to. */
    farmScoped?: boolean;
    /**
     * Fields of the answer's data that are never kept for an Idempotency-Key replay (plugins/idempotency.ts): a secret
     * shown once (an agent secret) is not stored in the clear; a replay answers without it.
     */
    unkeptFields?: readonly string[];
  }
  interface FastifyInstance {
    db: DB;
    config: ServerConfig;
  }
  interface FastifyRequest {
    locale: Locale;
    sessionId: string | null;
    user: UserRecord | null;
    permissions: ReadonlySet<number>;
    /** The farm this request is scoped to, after the membership check. */
    farmKey: string | null;
    agent: AgentPrincipal | null;
  }
}
