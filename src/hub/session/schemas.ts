// The hub session's shapes: who is signed in and in which account, and the sign-in and
// account-pick bodies. Pure: TypeBox, src/domain and the shared schemas only, for the web app.
import { Type, type Static } from '@sinclair/typebox';
import { ACCOUNT_STATES, SUBSCRIPTIONS, USER_ROLES } from '../../domain/account.js';
import { StringEnum, Uuid } from '../../http/schemas.js';

export const SessionAccount = Type.Object(
  {
    account_id: Uuid,
    user_id: { ...Uuid, description: 'You, as a user of this account: the id your own entries (comments) carry.' },
    name: Type.String(),
    role: StringEnum(USER_ROLES),
    state: StringEnum(ACCOUNT_STATES, { description: 'Set by the operator: a suspended account is read-only in the hub.' }),
    subscription: StringEnum(SUBSCRIPTIONS, { description: 'Set by the operator: with a lapsed or ended plan the account is read-only.' }),
  },
  { title: 'HubSessionAccount' },
);
export type SessionAccount = Static<typeof SessionAccount>;
export const HubSession = Type.Object(
  {
    email: Type.String(),
    csrf_token: Type.String({ description: 'Send it back as x-csrf-token on every POST, PUT, PATCH and DELETE.' }),
    accounts: Type.Array(SessionAccount, { description: 'The accounts this sign-in may act in (closed ones are gone).' }),
    account: Type.Union([SessionAccount, Type.Null()], { description: 'The account picked; null until one is, and once it is closed.' }),
    closed_account: Type.Union([Type.String(), Type.Null()], { description: 'The name of the account this session had picked if it has been closed since; null otherwise.' }),
  },
  { title: 'HubSession' },
);
export type HubSession = Static<typeof HubSession>;

// The hub's own page asks this on every load: signed out is an expected answer there (200, not
// a 401 the browser would log as a failed request); GET /session keeps its 401 for other clients.
export const HubSessionState = Type.Object(
  {
    signed_in: Type.Boolean(),
    session: Type.Union([HubSession, Type.Null()], { description: 'Who is signed in; null when nobody is.' }),
  },
  { title: 'HubSessionState' },
);
export type HubSessionState = Static<typeof HubSessionState>;

export const SignInBody = Type.Object(
  { email: Type.String({ minLength: 1, maxLength: 320 }), password: Type.String({ minLength: 1, maxLength: 1024 }) },
  { additionalProperties: false },
);
export type SignInBody = Static<typeof SignInBody>;
export const PickBody = Type.Object({ account_id: Uuid }, { additionalProperties: false });
export type PickBody = Static<typeof PickBody>;
