// Connection and request deadlines and a per-address connection cap, so that one slow or hostile
// client cannot hold the server: a request must have sent its headers and its whole body within
// SWITCHBOARD_REQUEST_TIMEOUT_MS, a body that stops arriving is cut after
// SWITCHBOARD_BODY_IDLE_TIMEOUT_MS, idle keep-alive connections close, and one address holds at most
// SWITCHBOARD_MAX_CONNECTIONS_PER_ADDRESS connections. Also: Expect: 100-continue with a length over
// the body limit is never told to continue (413 at once).
//
// A request cut by a deadline gets no answer: its connection is closed. The spec's catalogue has
// no timeout code (408 is not in it), and a request that never finished arriving was never acted
// on, which every HTTP client already reports as a network error it may retry.
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { BlockList, isIPv4, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { HttpConfig } from '../config.js';

/** Why the server closed a request's connection itself; read when the request's read fails. */
export type CutReason = 'request_deadline' | 'body_idle';
const cutReasons = new WeakMap<Socket, CutReason>();

export function markCut(socket: Socket, reason: CutReason): void {
  if (!cutReasons.has(socket)) cutReasons.set(socket, reason);
}

export function cutReason(socket: Socket | null | undefined): CutReason | null {
  return (socket && cutReasons.get(socket)) ?? null;
}

/**
 * Options for Node's server. Node enforces the request deadline itself (headersTimeout for the
 * headers, requestTimeout for headers and body) on a sweep every `connectionsCheckingInterval`;
 * its default of 30 s would let a 30 s deadline run to 60 s, so the sweep runs often (at most
 * every second; cheap: one pass over the open connections).
 * TLS: a handshake must finish within the request deadline too (Node's default is 120 s).
 */
export function serverOptions(http: HttpConfig): ServerOptions & { handshakeTimeout: number } {
  return {
    requestTimeout: http.requestTimeoutMs,
    headersTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1_000, Math.max(100, Math.floor(http.requestTimeoutMs / 10))),
    handshakeTimeout: http.requestTimeoutMs,
  };
}

/** IPv4 clients of a dual-stack listener show up as ::ffff:a.b.c.d; they are the same client. */
function plainAddress(address: string): string {
  return address.startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
}

// The named ranges TRUST_PROXY takes, as fastify (proxy-addr) defines them.
const NAMED_RANGES: Record<string, [string, number, 'ipv4' | 'ipv6'][]> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

/**
 * The trusted proxies of a TRUST_PROXY list, which the per-address cap leaves alone: every client
 * behind a proxy arrives over the proxy's connections, so capping its address would cap them all,
 * and the forwarded client address is only known per request, after the connection is taken.
 * A hop count names no address (every peer is taken for a proxy): the cap then applies to every
 * peer address, the proxy's included; list the proxies to exempt them.
 */
export function trustedProxies(trustProxy: false | number | string[]): (address: string) => boolean {
  if (!Array.isArray(trustProxy)) return () => false;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const named = NAMED_RANGES[entry];
    if (named) {
      for (const [net, prefix, family] of named) list.addSubnet(net, prefix, family);
      continue;
    }
    const [address = '', prefix] = entry.split('/');
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => list.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}

export interface GuardOptions {
  http: HttpConfig;
  trustProxy: false | number | string[];
}

/** Requests that sent Expect: 100-continue and have not been told to continue yet. */
const awaitingContinue = new WeakSet<IncomingMessage>();

const REFUSAL_LOG_MS = 60_000;

/** Installs the per-address cap, the body-idle cut and the Expect: 100-continue check on the app's server. */
export function guardConnections(app: FastifyInstance, opts: GuardOptions): void {
  const { http } = opts;
  const { server, log } = app;
  const exempt = trustedProxies(opts.trustProxy);
  const open = new Map<string, number>();
  // Refusals are logged once a minute per address with their count, not once each: a client
  // that opens connections in a loop would otherwise write the log full.
  const refused = new Map<string, number>();
  const flushRefusals = () => {
    for (const [address, count] of refused) {
      log.warn({ address, refused: count, limit: http.maxConnectionsPerAddress }, 'connections refused: too many open from one address');
    }
    refused.clear();
  };
  const flusher = setInterval(flushRefusals, REFUSAL_LOG_MS);
  flusher.unref();
  server.once('close', () => {
    clearInterval(flusher);
    flushRefusals();
  });

  // 'connection' is the TCP connection, before any TLS handshake or byte of HTTP.
  server.on('connection', (socket: Socket) => {
    if (!socket.remoteAddress) return;
    const address = plainAddress(socket.remoteAddress);
    if (exempt(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= http.maxConnectionsPerAddress) {
      refused.set(address, (refused.get(address) ?? 0) + 1);
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const n = (open.get(address) ?? 1) - 1;
      if (n > 0) open.set(address, n);
      else open.delete(address);
    });
  });

  // (A client waiting for 100 Continue sends nothing until told to: its body is watched from then.)
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!awaitingContinue.has(req)) watchBody(req, res, http.bodyIdleTimeoutMs);
  });

  // With a 'checkContinue' listener Node no longer answers 100 Continue by itself: the answer waits
  // until the request has passed the pipeline and its body is about to be read (below).
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req);
    server.emit('request', req, res);
  });
  // A request that asked to send its body only once told to continue (Expect: 100-continue) is
  // told so when the body is about to be read, and only if its declared length fits the route's
  // limit: over it, the body parser answers 413 body_too_large at once and the body is never sent.
  // Any earlier answer (401, 404, 429...) is given without the body too; Node then closes the
  // connection, as the client may still send the body.
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (awaitingContinue.delete(request.raw) && !(Number(request.headers['content-length']) > request.routeOptions.bodyLimit)) {
      reply.raw.writeContinue();
      watchBody(request.raw, reply.raw, http.bodyIdleTimeoutMs);
    }
    done(null, payload);
  });
}

/**
 * A body must keep arriving: while a request's body is incomplete, the socket's idle timer runs
 * (any byte read or written restarts it); when it fires, the connection is cut. Once the whole
 * body is in, a slow answer (our own work) is never cut: the timer is stopped at its next firing.
 */
function watchBody(req: IncomingMessage, res: ServerResponse, idleMs: number): void {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody || req.complete) return;
  const socket = req.socket;
  // Node emits the socket's 'timeout' on the request while it is incomplete, else on the response.
  req.once('timeout', () => {
    markCut(socket, 'body_idle');
    socket.destroy();
  });
  res.once('timeout', () => socket.setTimeout(0));
  socket.setTimeout(idleMs);
}
