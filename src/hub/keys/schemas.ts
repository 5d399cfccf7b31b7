// The hub's API-key shapes: a key, the list, the scopes, and the create, update and roll bodies
// with what they answer. Pure: TypeBox, src/domain and the shared schemas only, for the web app.
import { Type, type Static } from '@sinclair/typebox';
import { ROLL_GRACES } from '../../domain/hub.js';
import { KEY_STATES, MAX_KEY_NAME, SCOPES } from '../../domain/key.js';
import { DateTime, Line, Nullable, StringEnum, Uuid } from '../../http/schemas.js';

const Cap = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'Monthly spend cap in micros (1,000,000 = US$1).' });
const Name = Line({ minLength: 1, maxLength: MAX_KEY_NAME, description: 'What the key is for; one line.' });

export const HubKey = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    prefix: Type.String({ description: "The key's visible prefix (never its value, which is shown only once)." }),
    scopes: Type.Array(Type.String()),
    state: StringEnum(KEY_STATES, { description: 'rolled: replaced by a new key and still valid until expires_at (its grace).' }),
    created_by: Type.Object({ id: Uuid, name: Type.String(), email: Type.String() }),
    created_at: DateTime,
    last_used_at: Nullable(DateTime),
    expires_at: Nullable(DateTime),
    monthly_spend_cap_micros: Nullable(Cap),
    spent_this_month_micros: Type.Integer({ description: 'Spent through the key in the current UTC month, in micros.' }),
    revoked_at: Nullable(DateTime),
    replaced_by: Nullable(Uuid),
  },
  { title: 'HubKey' },
);
export type HubKey = Static<typeof HubKey>;

export const KeyList = Type.Object(
  {
    data: Type.Array(HubKey, { description: 'Every key of the account, newest first (not paged: an account holds at most 10 active keys).' }),
    max_active: Type.Integer({ description: 'The most active keys an account may hold.' }),
  },
  { title: 'HubKeyList' },
);
export type KeyList = Static<typeof KeyList>;

/** A scope with what it lets a key do (no title: inline in the list's document). */
export const ScopeInfo = Type.Object({ scope: StringEnum(SCOPES), description: Type.String() });
export type ScopeInfo = Static<typeof ScopeInfo>;
export const ScopeList = Type.Object(
  { data: Type.Array(ScopeInfo) },
  { title: 'HubScopeList' },
);
export type ScopeList = Static<typeof ScopeList>;

export const CreateBody = Type.Object(
  {
    name: Name,
    scopes: Type.Array(StringEnum(SCOPES), { maxItems: SCOPES.length, uniqueItems: true }),
    expires_at: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'In the future; null or absent: never.' }))),
    monthly_spend_cap_micros: Type.Optional(Nullable(Cap)),
  },
  { additionalProperties: false },
);
export type CreateBody = Static<typeof CreateBody>;

export const Created = Type.Object(
  { key: HubKey, value: Type.String({ description: 'The key itself: shown this once, never again.' }) },
  { title: 'HubKeyCreated' },
);
export type Created = Static<typeof Created>;

export const UpdateBody = Type.Object(
  { name: Type.Optional(Name), monthly_spend_cap_micros: Type.Optional(Nullable(Cap)) },
  { additionalProperties: false, minProperties: 1, description: 'A cap may be raised, lowered or removed (null).' },
);
export type UpdateBody = Static<typeof UpdateBody>;

export const RollBody = Type.Object(
  { grace: StringEnum(ROLL_GRACES, { description: 'How long the old key keeps working: none, 1h, 24h or 7d.' }) },
  { additionalProperties: false },
);
export type RollBody = Static<typeof RollBody>;

export const Rolled = Type.Object(
  {
    old: HubKey,
    key: HubKey,
    value: Type.String({ description: "The new key's value: shown this once, never again." }),
  },
  { title: 'HubKeyRolled' },
);
export type Rolled = Static<typeof Rolled>;

export const IdParams = Type.Object({ id: Uuid }, { additionalProperties: false });
export type IdParams = Static<typeof IdParams>;
