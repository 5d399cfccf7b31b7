// The `openai-compatible` LLM provider: a POST to an OpenAI-style /chat/completions endpoint
// (OpenAI, vLLM, Ollama, llama.cpp server, LiteLLM …). The endpoint is operator configuration, so
// the source.web address guard does not apply to it (a local model server is a normal setup).
// A 429 or 5xx answer ("not now") is tried again, up to maxAttempts in all, after an exponential
// backoff with jitter or the server's Retry-After, within the caller's signal (the run's time
// limit and lease): a wait that signal ends is cut short. Nothing is billed for a refused
// attempt; the caller bills the one answer it gets, once.
import type { LlmProvider, LlmRequest, LlmResponse } from '../../types.js';
import { estimateTokens } from './local.js';
import { backoffMs } from '../../../lib/retry.js';

export class LlmError extends Error {
  override readonly name = 'LlmError';
}

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Attempts in all, the first included (SWITCHBOARD_LLM_MAX_ATTEMPTS); default 1. */
  maxAttempts?: number;
  /** The first retry waits about this long, each next one twice as long (jittered). */
  retryBaseMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails with the server's answer. */
  maxRetryWaitMs?: number;
}

/** HTTP answers that say "not now" rather than "no". */
const RETRYABLE = (status: number) => status === 429 || status >= 500;

function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Resolves after ms, or false at once when the signal aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (v: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(v);
    };
    const onAbort = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Where to POST. A base with a path (`https://api.openai.com/v1`, `…/openai/v1`, `…/v1beta/openai`)
 * is used as given; a bare origin (`http://localhost:8000`) gets the usual `/v1`. A base that
 * already ends in /chat/completions is taken as the full endpoint.
 */
export function chatCompletionsUrl(baseUrl: string): string {
  const u = new URL(baseUrl);
  const path = u.pathname.replace(/\/+$/, '');
  if (path.endsWith('/chat/completions')) return u.toString();
  u.pathname = (path === '' ? '/v1' : path) + '/chat/completions';
  return u.toString();
}

const snippet = (s: string): string => (s.length > 300 ? `${s.slice(0, 300)}…` : s);

/** The server's own error message when it sent an OpenAI-style error body, else the raw text. */
function errorDetail(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: unknown } | string };
    if (typeof j.error === 'string') return snippet(j.error);
    if (j.error && typeof j.error.message === 'string') return snippet(j.error.message);
  } catch {
    // not JSON: fall through to the raw text
  }
  return snippet(body.trim());
}

const tokenCount = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : null;

export function createOpenAiCompatibleLlm(opts: OpenAiCompatibleOptions): LlmProvider {
  const endpoint = chatCompletionsUrl(opts.baseUrl);
  const maxAttempts = Math.max(1, opts.maxAttempts ?? 1);
  const baseMs = opts.retryBaseMs ?? 500;
  const maxWaitMs = opts.maxRetryWaitMs ?? 30_000;
  return {
    name: 'openai-compatible',
    async complete(req: LlmRequest): Promise<LlmResponse> {
      for (let attempt = 1; ; attempt++) {
        const r = await once(req);
        if ('response' in r) return r.response;
        const wait = Math.max(r.retryAfterMs ?? 0, backoffMs(attempt, baseMs, Infinity));
        if (!r.retryable || attempt >= maxAttempts || wait > maxWaitMs) {
          throw new LlmError(attempt > 1 ? `${r.error.message} (after ${attempt} attempts)` : r.error.message);
        }
        // The run's time limit (or a lost lease) ends the wait, and the call with it.
        if (!(await pause(wait, req.signal))) throw new LlmError(`${r.error.message} (the run's time ran out before attempt ${attempt + 1})`);
      }
    },
  };

  /** One attempt: the answer, or the error with whether another attempt may do better. */
  async function once(req: LlmRequest): Promise<{ response: LlmResponse } | { error: LlmError; retryable: boolean; retryAfterMs: number | null }> {
    const timeout = AbortSignal.timeout(opts.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
    let status: number;
    let body: string;
    let retryAfter: string | null;
    try {
      const res = await fetch(endpoint, {
        method: 'POST',
        headers,
        signal,
        body: JSON.stringify({
          model: opts.model,
          messages: [{ role: 'user', content: req.prompt }],
          max_tokens: req.maxTokens,
        }),
      });
      status = res.status;
      retryAfter = res.headers.get('retry-after');
      body = await res.text();
    } catch (err) {
      if (timeout.aborted) throw new LlmError(`LLM provider timed out after ${opts.timeoutMs} ms`);
      if (req.signal?.aborted) throw new LlmError('LLM request cancelled');
      const cause = (err as { cause?: { message?: string } }).cause?.message;
      throw new LlmError(`LLM provider unreachable at ${new URL(endpoint).origin}: ${cause ?? (err as Error).message}`);
    }
    if (status < 200 || status > 299) {
      const error = new LlmError(`LLM provider answered HTTP ${status}: ${errorDetail(body) || '(empty body)'}`);
      return { error, retryable: RETRYABLE(status), retryAfterMs: retryAfterMs(retryAfter) };
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new LlmError(`LLM provider answered with invalid JSON: ${snippet(body)}`);
    }
    const j = json as {
      choices?: Array<{ message?: { content?: unknown } }>;
      usage?: { prompt_tokens?: unknown; completion_tokens?: unknown };
    };
    const content = Array.isArray(j?.choices) ? j.choices[0]?.message?.content : undefined;
    if (typeof content !== 'string') throw new LlmError('LLM provider answer has no choices[0].message.content');
    // Some servers omit usage; the estimate keeps billing going rather than giving tokens away.
    const inputTokens = tokenCount(j.usage?.prompt_tokens) ?? estimateTokens(req.prompt);
    const outputTokens = tokenCount(j.usage?.completion_tokens) ?? estimateTokens(content);
    return { response: { text: content, inputTokens, outputTokens } };
  }
}
