// The one place errors become HTTP answers: ApiError as is; a service's Refusal and a definition's
// DefinitionError by their catalogue codes (so no route wraps a service call); fastify's own
// validation and body-parsing errors mapped into the catalogue; anything else is a 500 whose
// details go to the log only (the body carries the request id to quote).
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { duplicateKeyPath } from '../lib/json.js';
import { DefinitionError, ROOT } from '../lib/json-fields.js';
import { printable } from '../lib/text.js';
import { cutReason, markCut } from './connections.js';
import { ApiError, notFound } from '../domain/errors.js';
import { Refusal } from '../services/refusal.js';
import { toErrorBody } from './errors.js';
import { validationToApiError } from './validation.js';

/** fatal: invalid UTF-8 throws; ignoreBOM: a byte-order mark is kept in the text, where JSON.parse refuses it (as before). */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A service's refusal in the API's words: a missing record as the catalogue's "No such … in this
 * account." (the service's message names ids and accounts, for the operator); any other with its
 * own message and the body path at fault.
 */
function refusalToApiError(err: Refusal): ApiError {
  if (err.code === 'resource_not_found') return notFound(err.record);
  return new ApiError(err.code, err.message, err.param === undefined ? {} : { param: err.param });
}

function toApiError(err: FastifyError): ApiError | null {
  if (err instanceof ApiError) return err;
  if (err instanceof Refusal) return refusalToApiError(err);
  // A definition the body carries (a workflow's, an automation's): its path is the param.
  if (err instanceof DefinitionError) return new ApiError('invalid_field', err.detail, err.path === ROOT ? {} : { param: err.path });
  if (err.validation) return validationToApiError(err.validation, err.validationContext ?? 'body');
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('body_too_large', 'The body is over 1 MB (1,048,576 bytes).');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'The body must be application/json.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', 'The body is not valid JSON.');
  }
  if (err instanceof SyntaxError && err.statusCode === 400) return new ApiError('invalid_json', 'The body is not valid JSON.');
  return null;
}

/**
 * The charset a JSON Content-Type names when it is not UTF-8, else null. JSON is UTF-8 (RFC 8259),
 * so `charset=utf-8` (or `utf8`), in any case and quoted or not (RFC 9110: the same value), is
 * accepted; any other charset would mean decoding the body as something it is not.
 */
export function foreignCharset(contentType: string | undefined): string | null {
  for (const param of (contentType ?? '').split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let value = param.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    const v = value.toLowerCase();
    if (v !== 'utf-8' && v !== 'utf8') return JSON.stringify(printable(value));
  }
  return null;
}

/**
 * The request's own stream failed: the client went away mid-body (or the server cut a request
 * that missed its deadline). Nobody is left to answer and nothing went wrong on our side.
 */
function isAbort(err: FastifyError, request: FastifyRequest): boolean {
  return request.raw.errored === err || (request.raw.destroyed && !request.raw.complete && err.code === 'ECONNRESET');
}

/** `onRefusal` hears every limiter's refusal (an error of type rate_limit), by its code. */
export function installErrorHandling(app: FastifyInstance, onRefusal: (code: string) => void = () => {}): void {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAbort(err, request)) {
      const cut = cutReason(request.raw.socket);
      request.log.info({ cut: cut ?? undefined }, cut ? 'request cut: it missed its deadline' : 'client aborted the request');
      // Nothing can reach the peer; the reply ends as 499 (nginx's "client closed request"), never a 5xx.
      return reply.code(499).send();
    }
    let apiErr = toApiError(err);
    if (!apiErr) {
      request.log.error({ err }, 'internal error');
      apiErr = new ApiError('internal_error', 'Something went wrong on our side; retry with backoff and quote the request_id.');
    }
    if (apiErr.type === 'rate_limit') onRefusal(apiErr.code);
    if (apiErr.headers) reply.headers(apiErr.headers);
    reply.header('x-request-id', request.id);
    return reply.code(apiErr.status).send(toErrorBody(apiErr, request.id));
  });

  // Bodies: application/json only, parsed by us so every failure maps into the catalogue.
  // An empty body (any content type) is "no body": run starts take none.
  app.removeAllContentTypeParsers();
  // Read as bytes and decoded strictly: JSON is UTF-8, and a body that is not (a Latin-1 "é")
  // would otherwise be decoded with U+FFFD in place of its bytes and stored altered.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    const charset = foreignCharset(req.headers['content-type']);
    if (charset !== null) {
      return done(new ApiError('unsupported_media_type', `The body must be application/json in UTF-8, not in ${charset}.`), undefined);
    }
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      return done(new ApiError('invalid_json', 'The body is not valid JSON: it is not UTF-8 text.'), undefined);
    }
    if (text.trim() === '') return done(null, undefined);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return done(new ApiError('invalid_json', 'The body is not valid JSON.'), undefined);
    }
    // JSON.parse keeps the last of two equal keys silently; the sender may have meant the first.
    const dup = duplicateKeyPath(text);
    if (dup !== null) {
      const param = dup.filter((k): k is string => typeof k === 'string').map(printable).join('.');
      return done(new ApiError('invalid_json', `The body is not valid JSON: the key ${param} appears twice in one object.`, { param }), undefined);
    }
    done(null, json);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined);
    done(new ApiError('unsupported_media_type', 'The body must be application/json.'), undefined);
  });

  // No body at all is validated as {} (fastify would validate it as null): run starts take
  // "nothing or {}", and routes with required fields answer missing_field. A JSON null stays a
  // body that is not an object (422 invalid_body).
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
  });
}

/**
 * Requests Node's HTTP parser refuses (a malformed header line, headers past its 16 KB, a broken
 * request line) never reach fastify's pipeline, so fastify would answer them with its own body
 * and no request id. They get the spec's error body and an X-Request-Id like every other answer.
 * The catalogue has no code for "not HTTP at all": 400 invalid_parameter is the nearest (the
 * request carries something the server cannot take). A timed-out or reset connection, or a TLS
 * handshake that failed, is closed without an answer: the peer is gone, stalled or not speaking
 * HTTP over TLS (see connections.ts for why a missed deadline gets no 408).
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') markCut(socket, 'request_deadline');
  if (err.code?.startsWith('HPE_') && socket.writable) {
    const id = randomUUID();
    const apiErr = new ApiError(
      'invalid_parameter',
      err.code === 'HPE_HEADER_OVERFLOW'
        ? 'The request headers are larger than the server reads (16 KB).'
        : 'The request is not well-formed HTTP (request line or headers).',
    );
    const body = JSON.stringify(toErrorBody(apiErr, id));
    socket.write(
      `HTTP/1.1 ${apiErr.status} Bad Request\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
