// The settings screen's shapes: the account (with its tier's limits) and its projects' settings,
// and the bodies that change them. Pure: TypeBox, src/domain and the shared schemas only.
import { Type, type Static } from '@sinclair/typebox';
import { ACCOUNT_STATES, ACCOUNT_TIERS, SUBSCRIPTIONS } from '../../domain/account.js';
import { EMAIL_TRANSPORTS, LLM_PROVIDERS, SMS_TRANSPORTS } from '../../domain/providers.js';
import { DateTime, Line, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

const Limit = Nullable(Type.Integer({ description: 'null: by contract, no fixed limit.' }));
export const ProjectSettings = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    sms_consent_required: Type.Boolean({ description: 'Texts go only to contacts who agreed to them (default true).' }),
    max_automations_per_contact: Type.Integer({ minimum: 1, description: 'Automations one contact may be in at once (default 5).' }),
  },
  { title: 'HubProjectSettings' },
);
export type ProjectSettings = Static<typeof ProjectSettings>;
export const Settings = Type.Object(
  {
    account: Type.Object({
      id: Uuid,
      name: Type.String(),
      tier: StringEnum(ACCOUNT_TIERS, { description: 'Set by the operator.' }),
      state: StringEnum(ACCOUNT_STATES, { description: 'Set by the operator.' }),
      subscription: StringEnum(SUBSCRIPTIONS, { description: 'Set by the operator.' }),
      credit_micros: Type.Integer(),
      api_open: Type.Boolean(),
      limits: Type.Object(
        { requests_per_minute: Limit, run_starts_per_minute: Limit, concurrent_runs: Limit },
        { description: "The tier's limits with the operator's overrides applied." },
      ),
      created_at: DateTime,
    }),
    projects: Type.Array(ProjectSettings, { description: 'Every project, oldest first.' }),
  },
  { title: 'HubSettings' },
);
export type Settings = Static<typeof Settings>;
export const AccountBody = Type.Object({ name: Type.Optional(Line({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false });
export type AccountBody = Static<typeof AccountBody>;
export const ProjectBody = Type.Object(
  {
    sms_consent_required: Type.Optional(Type.Boolean()),
    max_automations_per_contact: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  },
  { additionalProperties: false },
);
export type ProjectBody = Static<typeof ProjectBody>;
export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;

// The providers this server runs with (docs/architecture.md §10.5): names only, never a URL, host
// or key. `development`: a stand-in (the local LLM echoes its input; the outbox transports keep
// messages in the outbox, undelivered).
const provider = <T extends readonly string[]>(names: T, what: string) =>
  Type.Object({ provider: StringEnum(names, { description: what }), development: Type.Boolean({ description: 'A development stand-in: nothing real happens.' }) });
export const Providers = Type.Object(
  {
    llm: provider(LLM_PROVIDERS, 'local (development: echoes its input, no model is called) or openai-compatible.'),
    email: provider(EMAIL_TRANSPORTS, 'outbox (development: kept in the outbox, not delivered) or smtp.'),
    sms: provider(SMS_TRANSPORTS, 'outbox (development: kept in the outbox, not delivered) or http.'),
  },
  { title: 'HubProviders' },
);
export type Providers = Static<typeof Providers>;
