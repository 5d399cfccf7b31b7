// The `openai-compatible` LLM provider: one POST to an OpenAI-style /chat/completions endpoint
// (OpenAI, vLLM, Ollama, llama.cpp server, LiteLLM …). The endpoint is operator configuration, so
// the source.web address guard does not apply to it (a local model server is a normal setup).
import type { LlmProvider, LlmRequest, LlmResponse } from '../../types.js';
import { estimateTokens } from './local.js';

export class LlmError extends Error {
  override readonly name = 'LlmError';
}

export interface OpenAiCompatibleOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  timeoutMs: number;
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
  return {
    name: 'openai-compatible',
    async complete(req: LlmRequest): Promise<LlmResponse> {
      const timeout = AbortSignal.timeout(opts.timeoutMs);
      const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
      if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
      let status: number;
      let body: string;
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
        body = await res.text();
      } catch (err) {
        if (timeout.aborted) throw new LlmError(`LLM provider timed out after ${opts.timeoutMs} ms`);
        if (req.signal?.aborted) throw new LlmError('LLM request cancelled');
        const cause = (err as { cause?: { message?: string } }).cause?.message;
        throw new LlmError(`LLM provider unreachable at ${new URL(endpoint).origin}: ${cause ?? (err as Error).message}`);
      }
      if (status < 200 || status > 299) {
        throw new LlmError(`LLM provider answered HTTP ${status}: ${errorDetail(body) || '(empty body)'}`);
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
      return { text: content, inputTokens, outputTokens };
    },
  };
}
