/**
 * The answer envelope {code, msg, data} and error mapping (api-conventions.md). Validation failures
 * carry data.fields with translated messages; 5xx are logged with the request id and say only that the
 * server failed.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR } from '@shared/errors';
import { AppError } from '../errors';
import { type FieldMessage, GENERIC_MESSAGES, issueMessage } from '../validation-issue';
import { translate } from '../i18n';

export function ok<T>(data: T): { code: 0; msg: 'success'; data: T } {
  return { code: 0, msg: 'success', data };
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  let msg = translate(request.locale, ERROR[err.errorName].key, err.vars);
  let data = err.data;
  if (data && typeof data === 'object' && 'fields' in data) {
    const given = Object.entries((data as { fields: Record<string, string | FieldMessage> }).fields);
    const fields = given.map(([k, v]) => [k, typeof v === 'string' ? translate(request.locale, v) : translate(request.locale, v.key, v.vars)] as const);
    data = { fields: Object.fromEntries(fields) };
    // The message names the first problem, so a toast alone is useful; a message that does not say which field it is
    // about ("at most 200 characters") gets the field's name in front.
    const first = given[0];
    if (first && fields[0]) {
      const key = typeof first[1] === 'string' ? first[1] : first[1].key;
      msg = GENERIC_MESSAGES.has(key) && first[0] !== '_' ? `${first[0]}: ${fields[0][1]}` : fields[0][1];
    }
  }
  if (err.errorName === 'unauthorized') data = '/login';
  return reply.status(err.status).send({ code: err.code, msg, data });
}

export function registerEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) return sendError(request, reply, error);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, FieldMessage> = {};
      for (const v of error.validation) {
        const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        fields[field] ??= issueMessage(v.message ?? '', v.keyword, v.params);
      }
      return sendError(request, reply, new AppError('validation', {}, { fields }));
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return sendError(request, reply, new AppError('tooManyRequests', { seconds: 60 }));
    if (status >= 400 && status < 500) {
      request.log.info({ err: error.message, code: error.code }, 'bad request');
      return sendError(request, reply, new AppError(status === 404 ? 'notFound' : status === 413 ? 'badRequest' : 'badRequest'));
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, new AppError('server'));
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new AppError('notFound')));
}
