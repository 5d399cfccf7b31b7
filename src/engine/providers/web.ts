// source.web's HTTP GET behind the address guard (docs/architecture.md §10.6).
//
// The guard sits in the socket's own DNS lookup: node:http asks our `lookup` for the address it
// is about to connect to, and we refuse there. Checking a name first and connecting later would
// let a DNS answer change in between (rebinding); here the address checked is the address used.
// Redirects are followed by hand so each hop goes through the same lookup again.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { blockedAddressReason, parseIpv4, parseIpv6 } from './address.js';

export class WebFetchError extends Error {
  override readonly name = 'WebFetchError';
}

export interface WebOptions {
  /** Hosts (lower case) the operator allows even when they resolve to private addresses. */
  allowHosts: readonly string[];
  /** Test seam: the resolver (defaults to node:dns lookup of all addresses). */
  resolve?: (host: string) => Promise<Array<{ address: string; family: number }>>;
}

export interface FetchOptions {
  signal: AbortSignal;
  maxBytes: number;
  timeoutMs: number;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const defaultResolve = (host: string): Promise<Array<{ address: string; family: number }>> =>
  dns.promises.lookup(host, { all: true, verbatim: true });

/** The host as the URL spells it, without IPv6 brackets, lower case. */
function bareHost(u: URL): string {
  const h = u.hostname.toLowerCase();
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

function refusal(host: string, address: string, why: string): WebFetchError {
  const shown = host === address ? address : `${host} (${address})`;
  return new WebFetchError(
    `refused to fetch from ${shown}: address is ${why}; an operator may allow the host in SWITCHBOARD_WEB_ALLOW_HOSTS`,
  );
}

/** A lookup for node:http that only ever hands public addresses to the socket. */
export function guardedLookup(resolve: NonNullable<WebOptions['resolve']>): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        if (all.length === 0) return callback(new WebFetchError(`${hostname} has no address`), '', 4);
        // Every address must pass: the socket may try any of them (happy eyeballs).
        for (const a of all) {
          const why = blockedAddressReason(a.address);
          if (why) return callback(refusal(hostname, a.address, why), '', 4);
        }
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family ? all.filter((a) => a.family === family) : all;
        const first = usable[0];
        if (first === undefined) return callback(new WebFetchError(`${hostname} has no IPv${family} address`), '', 4);
        if (options.all) return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
        callback(null, first.address, first.family);
      },
      (err: Error) => callback(new WebFetchError(`cannot resolve ${hostname}: ${err.message}`), '', 4),
    );
  };
}

/** Text-like bodies only: source.web feeds prompts and templates, not binaries. */
function textual(contentType: string | undefined): boolean {
  if (!contentType) return true;
  const [type = ''] = contentType.split(';');
  const t = type.trim().toLowerCase();
  return (
    t.startsWith('text/') ||
    t === 'application/json' ||
    t === 'application/xml' ||
    t === 'application/xhtml+xml' ||
    t.endsWith('+json') ||
    t.endsWith('+xml')
  );
}

function decode(body: Buffer, contentType: string | undefined): string {
  const charset = /charset=["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body); // an unknown charset label: best effort
  }
}

interface Hop {
  status: number;
  location: string | undefined;
  body: string;
}

function getOnce(url: URL, opts: FetchOptions, lookup: LookupFunction | undefined, signal: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((res0, rej0) => {
    // Settle exactly once, and stop listening for the abort when settled.
    const onAbort = (): void => {
      req.destroy();
      reject(new WebFetchError('aborted'));
    };
    const resolve = (h: Hop): void => {
      signal.removeEventListener('abort', onAbort);
      res0(h);
    };
    const reject = (e: Error): void => {
      signal.removeEventListener('abort', onAbort);
      rej0(e);
    };
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(
      url,
      {
        method: 'GET',
        ...(lookup ? { lookup } : {}),
        // No keep-alive agent: a pooled socket would skip our lookup for later requests.
        agent: false,
        headers: {
          'user-agent': 'Switchboard/0.1 (+source.web)',
          accept: 'text/html, text/plain, application/json, */*;q=0.5',
          // identity: the size cap counts the bytes we actually buffer, and no decompression bomb.
          'accept-encoding': 'identity',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (REDIRECTS.has(status) && location) {
          res.resume();
          resolve({ status, location, body: '' });
          return;
        }
        const type = res.headers['content-type'];
        if (status >= 200 && status < 300 && !textual(type)) {
          res.destroy();
          reject(new WebFetchError(`${url.host} answered ${type}, not text`));
          return;
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          res.destroy();
          reject(new WebFetchError(`response larger than ${opts.maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > opts.maxBytes) {
            // Stop reading at once: a server may stream forever.
            res.destroy();
            req.destroy();
            reject(new WebFetchError(`response larger than ${opts.maxBytes} bytes`));
            return;
          }
          chunks.push(c);
        });
        res.on('end', () => resolve({ status, location: undefined, body: decode(Buffer.concat(chunks), type) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // Covers a body that stalls after the headers, too: the timeout ends the whole exchange.
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    req.end();
  });
}

/**
 * GETs `rawUrl` as text. Refuses non-http(s) URLs, private/reserved addresses (unless the host is
 * allowed), non-2xx answers, non-text bodies, bodies over `maxBytes`, and anything slower than
 * `timeoutMs` in total (redirects included).
 */
export async function fetchText(rawUrl: string, opts: FetchOptions, web: WebOptions): Promise<string> {
  const lookup = guardedLookup(web.resolve ?? defaultResolve);
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([opts.signal, timeout]);
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new WebFetchError(`not a URL: ${rawUrl}`);
  }
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new WebFetchError(`only http and https URLs can be fetched, not ${url.protocol}`);
    }
    if (url.username || url.password) throw new WebFetchError('URLs with credentials are not fetched');
    const host = bareHost(url);
    const allowed = web.allowHosts.includes(host);
    // An IP literal never reaches `lookup` (the socket connects directly), so check it here.
    if (!allowed && (parseIpv4(host) || parseIpv6(host))) {
      const why = blockedAddressReason(host);
      if (why) throw refusal(host, host, why);
    }
    // An allowed host uses the system lookup: the operator vouched for where it points.
    const hostLookup = allowed ? undefined : lookup;
    let res: Hop;
    try {
      res = await getOnce(url, opts, hostLookup, signal);
    } catch (err) {
      if (timeout.aborted) throw new WebFetchError(`timed out after ${opts.timeoutMs} ms fetching ${url.host}`);
      if (opts.signal.aborted) throw new WebFetchError('fetch cancelled');
      if (err instanceof WebFetchError) throw err;
      throw new WebFetchError(`fetching ${url.host} failed: ${(err as Error).message}`);
    }
    if (res.location !== undefined) {
      if (hop >= MAX_REDIRECTS) throw new WebFetchError(`more than ${MAX_REDIRECTS} redirects`);
      try {
        url = new URL(res.location, url);
      } catch {
        throw new WebFetchError(`bad redirect location ${JSON.stringify(res.location)}`);
      }
      continue;
    }
    if (res.status < 200 || res.status > 299) throw new WebFetchError(`${url.host} answered HTTP ${res.status}`);
    return res.body;
  }
}
