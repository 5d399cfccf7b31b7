// The hub's own addresses: which page origins may change state, and on which host names a session
// cookie is honoured. Never derived from the request's Host header: a page on a name the attacker
// controls, rebound to this machine's address (DNS rebinding), sends its own name as Host and as
// Origin, and the two agree. What is ours is fixed by the server instead:
//   - SWITCHBOARD_PUBLIC_URL, when set, and every origin in SWITCHBOARD_HUB_ORIGINS;
//   - localhost, 127.0.0.1 and [::1] on the port this connection really arrived on (the socket's,
//     not the Host header's), with the server's scheme;
//   - the address this connection really arrived at, on that port (a LAN address typed into the
//     browser: an address literal cannot be rebound, only names can).
// A request without a socket port (app.inject(): no network at all) is taken to have arrived on
// the port the server listens on, else its configured PORT.
import net from 'node:net';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';

/** The names and addresses that always mean this machine, as they stand in a URL. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** A URL host name (brackets allowed, no port) that always means this machine: localhost, 127/8, ::1. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || (net.isIPv4(h) && h.startsWith('127.'));
}

/** The host name of a Host header value ("[::1]:8080" → "[::1]"), lower case; null when it is not one. */
export function hostnameOf(host: string | undefined): string | null {
  if (!host || /[\s/?#@\\]/.test(host)) return null;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** An origin in its one written form (lower case, default port dropped); null when it is not one. */
export function normalOrigin(origin: string): string | null {
  // An origin is a scheme, a host and a port, nothing more (browsers send exactly that).
  if (!/^https?:\/\/[^/?#@\s\\]+$/i.test(origin)) return null;
  try {
    const u = new URL(origin);
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin === 'null') return null;
    return u.origin.toLowerCase();
  } catch {
    return null;
  }
}

/** The Host header names this machine (loopback), whatever the port: the first-run set-up's test. */
export function hostIsLoopback(request: FastifyRequest): boolean {
  const name = hostnameOf(request.headers.host);
  return name !== null && isLoopbackHostname(name);
}

/** An address as a URL host: IPv4 as is, IPv6 in brackets, an IPv4-mapped IPv6 address as IPv4. */
function urlHost(address: string): string {
  const a = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  return net.isIPv6(a) ? `[${a}]` : a;
}

export class HubOrigins {
  /** SWITCHBOARD_PUBLIC_URL's origin and SWITCHBOARD_HUB_ORIGINS, normalised. */
  private readonly configured: readonly string[];
  private readonly configuredHosts: ReadonlySet<string>;
  private readonly scheme: 'http' | 'https';

  constructor(private readonly config: Config) {
    const list = [...(config.delivery.publicUrlSet ? [config.delivery.publicUrl] : []), ...config.hubOrigins];
    this.configured = [...new Set(list.map(normalOrigin).filter((o): o is string => o !== null))];
    this.configuredHosts = new Set(this.configured.map((o) => new URL(o).hostname));
    // The listener speaks https exactly when TLS is configured (TLS behind a proxy is the public URL's).
    this.scheme = config.tls ? 'https' : 'http';
  }

  /** The port the request really arrived on: its socket's; without a socket, where the server listens. */
  private portOf(request: FastifyRequest): number {
    const local = request.raw.socket?.localPort;
    if (typeof local === 'number' && local > 0) return local;
    const bound = request.server.server.address();
    if (bound && typeof bound === 'object' && bound.port > 0) return bound.port;
    return this.config.port;
  }

  /** The address the request's connection really arrived at, as a URL host; null without one (or an unspecified one). */
  private localHostOf(request: FastifyRequest): string | null {
    const a = request.raw.socket?.localAddress;
    if (!a || a === '0.0.0.0' || a === '::') return null;
    return urlHost(a).toLowerCase();
  }

  /** Every origin a state change may come from on this request's connection. */
  ownOrigins(request: FastifyRequest): string[] {
    const port = this.portOf(request);
    const hosts: string[] = [...LOOPBACK_HOSTS];
    const local = this.localHostOf(request);
    if (local && !hosts.includes(local)) hosts.push(local);
    const own = hosts.map((h) => normalOrigin(`${this.scheme}://${h}:${port}`)!);
    return [...new Set([...this.configured, ...own])];
  }

  /** The Origin header is one of ours. */
  allowsOrigin(request: FastifyRequest, origin: string): boolean {
    const o = normalOrigin(origin);
    return o !== null && this.ownOrigins(request).includes(o);
  }

  /**
   * The host name the browser asked for is one of ours: a loopback name, the address the
   * connection arrived at, or a configured origin's host. Ports are not compared: a browser's
   * cookies are kept per host name, not per port. Under TRUST_PROXY, the proxy's X-Forwarded-Host.
   */
  allowsHost(request: FastifyRequest): boolean {
    const name = hostnameOf(request.host);
    if (name === null) return false;
    return isLoopbackHostname(name) || this.configuredHosts.has(name) || name === this.localHostOf(request);
  }
}
