import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PERMISSION } from '@shared/menu-catalogue';
import { AgentKeyQuery } from '@shared/schemas/common';
import { MinerLoginDeleteBody, MinerLoginSaveBody } from '@shared/schemas/miner-logins';
import { deleteMinerLogin, listMinerLogins, saveMinerLogin } from '../domains/miner-logins/miner-logins';
import { ok } from '../plugins/envelope';
import { createSecretBox } from '../secret-box';

/** The farm's miner logins (domains/miner-logins): read with the farm settings, changed with their operations. */
export async function minerLoginRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const db = app.db;
  const box = createSecretBox(app.config);
  const tags = ['farms'];

  app.get(
    '/api/agent/minerLogins',
    {
      config: { permission: PERMISSION.farmSettings, farmScoped: true },
      schema: { tags, description: "The farm's miner logins: [{ id, family, user, updatedAt }] by family, in the order the agent tries them; never a password.", querystring: AgentKeyQuery },
    },
    async (req) => ok(await listMinerLogins(db, req.query.agentKey)),
  );

  app.post(
    '/api/agent/minerLogins/save',
    {
      config: { permission: PERMISSION.farmSettingsOperations, farmScoped: true },
      schema: {
        tags,
        description:
          'Adds a login (family antminer | whatsminer | braiins | vnish | luxos, user, password) or edits one (id; an empty password keeps the stored one). The same user and password again in a family answers the login there. At most 10 per family. The password is stored encrypted and reaches only the agent.',
        body: MinerLoginSaveBody,
      },
    },
    async (req) => ok(await saveMinerLogin(db, box, req.body)),
  );

  app.post(
    '/api/agent/minerLogins/delete',
    { config: { permission: PERMISSION.farmSettingsOperations, farmScoped: true }, schema: { tags, description: 'Deletes a login of the farm (one already gone changes nothing).', body: MinerLoginDeleteBody } },
    async (req) => {
      await deleteMinerLogin(db, req.body.agentKey, req.body.id);
      return ok(null);
    },
  );
}
