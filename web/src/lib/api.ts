// The hub's one way to call its server: JSON over fetch, same-origin cookie, the session's CSRF
// token on every state change. A refusal is thrown as a HubError carrying the server's envelope
// ({error: {type, code, message, param?, resource_id?, request_id}}); ErrorNotice puts it in words
// (lib/error-words.ts).
let csrfToken: string | null = null;

/** Set from GET /hub/api/session; sent as x-csrf-token on every POST, PUT, PATCH and DELETE. */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export class HubError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | null,
    readonly param?: string,
    /** The existing thing a conflict points at (contact_exists: that contact's id). */
    readonly resourceId?: string | null,
    /** Seconds to wait, from a 429's Retry-After. */
    readonly retryAfter?: number | null,
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function call<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new HubError(0, 'network_error', 'The server could not be reached. Check the connection and try again.', null);
  }
  const requestId = res.headers.get('x-request-id');
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok) {
    const e = (json as { error?: { code?: string; message?: string; param?: string; resource_id?: string; request_id?: string } } | null)?.error;
    const wait = Number(res.headers.get('retry-after'));
    const retryAfter = Number.isFinite(wait) && wait > 0 ? wait : null;
    throw new HubError(res.status, e?.code ?? 'unexpected_response', e?.message ?? `The server answered ${res.status}.`, e?.request_id ?? requestId, e?.param, e?.resource_id ?? null, retryAfter);
  }
  return json as T;
}

export const api = {
  get: <T>(path: string) => call<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => call<T>('POST', path, body),
  put: <T>(path: string, body: unknown = {}) => call<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => call<T>('PATCH', path, body),
  delete: <T>(path: string) => call<T>('DELETE', path),
};

/** A query string from the set values only: qs({status: 'failed', cursor: undefined}) → "?status=failed". */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}
