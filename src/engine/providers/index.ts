// Providers chosen by configuration (docs/architecture.md §10.5): the LLM and source.web's guarded
// GET.
import { WorkerPageRenderer } from '../../lib/page-renderer.js';
import type { Config } from '../../config.js';
import type { LlmProvider, Providers } from '../types.js';
import { createLocalLlm } from './llm/local.js';
import { createOpenAiCompatibleLlm } from './llm/openai-compatible.js';
import { fetchText, type WebOptions } from './web.js';

export { blockedAddressReason, isPublicAddress } from './address.js';
export { WebFetchError } from './web.js';
export { LlmError, chatCompletionsUrl } from './llm/openai-compatible.js';
export { createLocalLlm, estimateTokens } from './llm/local.js';
export { createOpenAiCompatibleLlm } from './llm/openai-compatible.js';

/** The LLM the configuration names: the development stand-in (`local`) or an openai-compatible service. */
export function createLlmProvider(llm: Config['llm']): LlmProvider {
  return llm.provider === 'openai-compatible'
    ? createOpenAiCompatibleLlm({
        // config.ts refuses openai-compatible without a base URL; this guards hand-built configs.
        baseUrl: llm.baseUrl ?? missing('SWITCHBOARD_LLM_BASE_URL'),
        apiKey: llm.apiKey,
        model: llm.model,
        timeoutMs: llm.timeoutMs,
        maxAttempts: llm.maxAttempts,
      })
    : createLocalLlm();
}

/** source.web's guarded GET under the configuration's allow-list. */
export function createWebFetcher(config: Pick<Config, 'engine'>, web: Pick<WebOptions, 'resolve'> = {}): Providers['fetchText'] {
  const webOptions: WebOptions = { allowHosts: config.engine.webAllowHosts.map((h) => h.toLowerCase()), ...web };
  return (url, opts) => fetchText(url, opts, webOptions);
}

export function createProviders(
  config: Pick<Config, 'llm' | 'engine'>,
  /** Test seam for the web resolver. */
  web: Pick<WebOptions, 'resolve'> = {},
): Providers {
  return { llm: createLlmProvider(config.llm), pages: new WorkerPageRenderer(), fetchText: createWebFetcher(config, web) };
}

function missing(name: string): never {
  throw new Error(`the openai-compatible LLM provider needs ${name}`);
}
