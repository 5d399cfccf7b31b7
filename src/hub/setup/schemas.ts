// First-run set-up's shapes: whether set-up is needed, and the body that makes the first account.
// Pure: TypeBox only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';

export const SetupState = Type.Object(
  {
    needed: Type.Boolean({ description: 'True while the store has no account.' }),
    token_required: Type.Boolean({ description: 'True when this caller must give the set-up token serve wrote to <data dir>/setup-token (not a browser on the server\'s own machine: a loopback peer, no proxy, a loopback Host).' }),
  },
  { title: 'HubSetupState' },
);
export type SetupState = Static<typeof SetupState>;

export const SetupBody = Type.Object(
  {
    account_name: Type.String({ minLength: 1, maxLength: 200 }),
    name: Type.String({ maxLength: 200, description: "The owner's name." }),
    email: Type.String({ minLength: 1, maxLength: 320 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
    setup_token: Type.Optional(Type.String({ maxLength: 200, description: 'Needed unless the request comes straight from a browser on the server\'s own machine.' })),
  },
  { additionalProperties: false },
);
export type SetupBody = Static<typeof SetupBody>;
