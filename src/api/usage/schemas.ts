// GET /usage's schemas: the date range and the usage. Pure: TypeBox only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';

const Day = (description: string) => Type.String({ format: 'date', description, examples: ['2026-03-01'] });

export const UsageQuery = Type.Object(
  {
    from: Type.Optional(Day("First UTC day, included. Default: the first day of `to`'s month.")),
    to: Type.Optional(Day('Last UTC day, included. Default: today (UTC).')),
  },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;

/** An amount of money, in micros (the hub's usage says so too). */
export const Micros = (description: string) => Type.Integer({ description: `${description} In micros; 1,000,000 micros = US$1.` });

export const Usage = Type.Object(
  {
    currency: Type.Literal('usd'),
    from: Type.String({ format: 'date', description: 'First day of the range (UTC), included.' }),
    to: Type.String({ format: 'date', description: 'Last day of the range (UTC), included.' }),
    balance_micros: Micros('AI credit left now.'),
    total_micros: Micros('Billed in the range.'),
    by_day: Type.Array(Type.Object({ date: Type.String({ format: 'date' }), micros: Micros('Billed that day.') }), {
      description: 'Every day of the range, oldest first, days without usage included with 0.',
    }),
    by_feature: Type.Array(
      Type.Object({ feature: Type.String({ examples: ['llm.tokens'] }), micros: Micros('Billed for it in the range.') }),
      { description: 'Features billed in the range, biggest first (ties by name).' },
    ),
  },
  { title: 'Usage' },
);
export type Usage = Static<typeof Usage>;
