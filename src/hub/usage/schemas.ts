// The Usage screen's shapes: one month's usage with each key's spend, and the month asked for.
// Pure: TypeBox and other schema modules only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Uuid } from '../../http/schemas.js';
import { Micros } from '../../api/usage/schemas.js';

export const UsageQuery = Type.Object(
  {
    month: Type.Optional(
      Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'The UTC month, YYYY-MM. Default: the current month.', examples: ['2026-03'] }),
    ),
  },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

export const KeySpend = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    prefix: Type.String({ description: "The key's visible prefix (never its value)." }),
    monthly_spend_cap_micros: Nullable(Micros('The monthly cap; null when the key has none.')),
    spent_micros: Micros('Spent through this key in the month.'),
    revoked: Type.Boolean(),
  },
  { title: 'HubKeySpend' },
);
export type KeySpend = Static<typeof KeySpend>;

export const HubUsage = Type.Object(
  {
    month: Type.String({ description: 'The month shown, YYYY-MM (UTC).' }),
    currency: Type.Literal('usd'),
    balance_micros: Micros('AI credit left now.'),
    total_micros: Micros('Billed in the month.'),
    by_day: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), micros: Micros('Billed that day.') }), {
      description: 'Every day of the month up to today (UTC), oldest first, days without usage included with 0; empty for a month to come.',
    }),
    by_feature: Type.Array(Type.Object({ feature: Type.String(), micros: Micros('Billed for it in the month.') }), {
      description: 'Features billed in the month, biggest first (ties by name).',
    }),
    keys: Nullable(
      Type.Array(KeySpend, {
        description:
          "Each key's spend in the month against its cap: every key not revoked, and revoked keys that spent in the month. " +
          'Only for owners and admins: null for a member, who never sees keys.',
      }),
    ),
  },
  { title: 'HubUsage' },
);
export type HubUsage = Static<typeof HubUsage>;
