/**
 * Plugin composition: external plugins (body parsers, cookies, OpenAPI) → app plugins (envelope,
 * auth, permissions, idempotency, compression) → routes → the built console (static files, sent as the `.br` / `.gz`
 * the build wrote beside them when the caller accepts one, + SPA fallback).
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ServerConfig } from './config';
import type { DB } from './db/kysely';
import { AppError } from './errors';
import './fastify-types';
import { registerAuth } from './plugins/auth';
import { registerCompression } from './plugins/compression';
import { registerEnvelope } from './plugins/envelope';
import { registerIdempotency } from './plugins/idempotency';
import { registerPermissions } from './plugins/permissions';
import { requestForLog } from './request-log';
import { ROUTE_MODULES } from './routes/route-modules';

export interface BuildAppOptions {
  config: ServerConfig;
  db: DB;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp({ config, db, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      serializers: { req: requestForLog },
    },
    genReqId: (req) => (typeof req.headers['x-request-id'] === 'string' ? req.headers['x-request-id'].slice(0, 64) : randomUUID()),
    trustProxy: config.trustProxy,
    bodyLimit: 20 * 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('db', db);
  app.decorate('config', config);

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyMultipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 50 * 1024 * 1024, files: 5 } });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Hashfield API',
        version: config.version,
        description:
          'Envelope {code,msg,data}; writes are POST (form, json or multipart) with X-Requested-With; headers agentKey, I18N, Idempotency-Key. See api-conventions.',
      },
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'hf_session' }, agent: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  registerEnvelope(app);
  registerAuth(app);
  registerPermissions(app);
  registerIdempotency(app);
  registerCompression(app); // after idempotency: its kept answers are the plain ones

  for (const mod of ROUTE_MODULES) await app.register(mod);

  if (config.distDir && existsSync(path.join(config.distDir, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: config.distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: (res, file) => {
        // `file` is the sibling sent (`index.html.br`): the rules are those of the file it stands for.
        const base = path.basename(file).replace(/\.(?:br|gz)$/, '');
        if (base === 'sw.js' || base === 'index.html' || base.endsWith('.webmanifest')) res.header('Cache-Control', 'no-cache');
        else if (file.includes(`${path.sep}assets${path.sep}`)) res.header('Cache-Control', 'public, max-age=31536000, immutable');
      },
    });
    // Everything under dist is served by path; any other non-API GET gets the SPA shell.
    app.get('/*', { config: { permission: 'public' }, schema: { hide: true } }, async (req, reply) => {
      if (req.url.startsWith('/api/')) throw new AppError('notFound');
      const rel = decodeURIComponent(req.url.split('?')[0] ?? '/').replace(/^\/+/, '');
      if (rel && !rel.includes('..') && existsSync(path.join(config.distDir as string, rel))) return reply.sendFile(rel);
      reply.header('Cache-Control', 'no-cache');
      return reply.sendFile('index.html');
    });
  }
  return app;
}
