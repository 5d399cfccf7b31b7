// The request log: one compact line per request, written when the response has gone, instead of
// fastify's two ("incoming request" and "request completed", each with its own serialised
// objects). It carries what an operator searches by (request id, method, loggable URL, status,
// duration) and never a credential: the URL goes through loggableUrl, and headers are not logged.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { loggableUrl } from './log-redaction.js';

/** The message of every request line, so a reader can filter them from the process's other lines. */
export const REQUEST_LOG_MSG = 'request';

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // request.log is the request's child logger: it already carries request_id.
    // Fastify's loggers are pino's; a process at LOG_LEVEL=warn builds nothing here.
    if ((request.log as unknown as Logger).isLevelEnabled('info')) {
      request.log.info(
        {
          method: request.method,
          url: loggableUrl(request),
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime * 100) / 100,
          ip: request.ip,
        },
        REQUEST_LOG_MSG,
      );
    }
    done();
  });
}
