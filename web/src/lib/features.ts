// A billed feature as a person reads it on Usage and the run page: "AI tokens", not llm.tokens.
import type { BilledFeature } from '@domain/billing';

export const FEATURE_WORDS: Record<BilledFeature, string> = {
  'llm.tokens': 'AI tokens',
  sms: 'SMS segments',
  'block.run': 'Workflow blocks run',
  email: 'Emails sent',
};

/** The feature's name; one the hub does not know yet reads as its words ("web.fetch" → "Web fetch"). */
export function featureName(feature: string): string {
  const known = (FEATURE_WORDS as Record<string, string | undefined>)[feature];
  if (known) return known;
  const words = feature.replace(/[._-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
