import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../shared/errors.ts';

const NAMES_NO_RECORD = 'This address names no record.';

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).send({
        ...error.details,
        code: error.code,
        message: error.message,
        ...(error.field && { field: error.field }),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const where = error.validationContext ?? 'request';
      const field = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') || undefined;
      if (where === 'params') {
        // A path names a record; one no record can have names nothing, so it answers as an unknown one does
        // (ADR 0010, docs/architecture.md), on every route alike, before any lookup.
        return reply.status(404).send({ code: 'not_found', message: NAMES_NO_RECORD, ...(field && { field }) });
      }
      return reply.status(400).send({
        code: 'validation_failed',
        message: `Invalid ${where}${field ? ` field '${field}'` : ''}: ${first?.message ?? 'bad value'}`,
        ...(field && { field }),
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ code: 'internal', message: 'The server failed to answer this request.' });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ code: 'rate_limited', message: 'Too many requests. Please wait and try again.' });
    }
    if (status === 413) {
      return reply.status(413).send({ code: 'payload_too_large', message: 'The request body is too large.' });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ code: 'bad_request', message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'internal', message: 'The server ran into an unexpected error.' });
  });
}

/**
 * Fastify's own refusals of a path before any route sees it: a path parameter longer than the router keeps
 * (`maxParamLength`, 414 by default) or one that does not decode (400) is a malformed id too, so it answers as the
 * params validation does.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH' || error.code === 'FST_ERR_BAD_URL') {
    reply.status(404).send({ code: 'not_found', message: NAMES_NO_RECORD });
    return;
  }
  request.log.error({ err: error }, 'request refused by the router');
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
  reply
    .status(status)
    .send(
      status === 500
        ? { code: 'internal', message: 'The server ran into an unexpected error.' }
        : { code: 'bad_request', message: error.message },
    );
}

export function sendRouteNotFound(request: FastifyRequest, reply: FastifyReply): void {
  reply.status(404).send({ code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` });
}
