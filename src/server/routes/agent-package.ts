/**
 * GET /api/agent/package?agentKey=… (the spec names no call for it): the farm's agent package as a .tar.gz,
 * offered by the add-farm wizard's install step. Same permission key as the wizard (/newMining), farm-scoped.
 * The server URL in the package's config file is the address the console was reached at.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { findMenuByKey } from '@shared/menu-catalogue';
import { AgentKeyQuery } from '@shared/schemas/common';
import { buildAgentPackage } from '../domains/agent-package/agent-package';
import { getFarm } from '../domains/farms/farms.repository';
import { AppError } from '../errors';

/** The wizard's view key (catalogue entry newMining). */
export const AGENT_PACKAGE_PERMISSION = findMenuByKey('newMining')?.permission ?? 1200;

export async function agentPackageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;

  app.get(
    '/api/agent/package',
    {
      config: { permission: AGENT_PACKAGE_PERMISSION, farmScoped: true },
      schema: {
        tags: ['farms'],
        description:
          'The farm\'s agent package (application/gzip, attachment hashfield-agent-<agentKey>.tar.gz): agent.js (the whole agent, Node.js 20+), hashfield-agent.json (server URL and agentKey of the farm; "secret" empty, to be filled in by the installer), hashfield-agent.service (systemd unit), README.md, package.json. Errors are envelopes.',
        querystring: AgentKeyQuery,
      },
    },
    async (req, reply) => {
      const farm = await getFarm(db, req.query.agentKey);
      if (!farm) throw new AppError('notFound');
      const pkg = await buildAgentPackage({ agentKey: farm.agent_key, agentName: farm.agent_name, serverUrl: `${req.protocol}://${req.host}` });
      req.log.info({ agentKey: farm.agent_key, build: pkg.build, source: pkg.source, ms: pkg.buildMs, bytes: pkg.archive.length }, 'agent package');
      return reply
        .header('Content-Type', 'application/gzip')
        .header('Content-Disposition', `attachment; filename="${pkg.fileName}"`)
        .header('Cache-Control', 'no-store')
        .header('X-Agent-Build', pkg.build)
        .send(pkg.archive);
    },
  );
}
