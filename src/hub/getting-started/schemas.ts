// The getting-started checklist's shapes (issue 25, item 8): which first steps the account has
// done, as flags the hub's home screen turns into a checklist with links. Pure, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../http/schemas.js';

/** The steps in the order the checklist lists them; api_key is listed for owners and admins only. */
export const START_STEPS = ['project', 'api_key', 'workflow', 'automation', 'contact', 'email'] as const;
export type StartStepKey = (typeof START_STEPS)[number];

export const StartStep = Type.Object({
  key: StringEnum(START_STEPS),
  done: Type.Boolean(),
});
export type StartStep = Static<typeof StartStep>;

export const GettingStarted = Type.Object(
  {
    steps: Type.Array(StartStep, { description: 'The steps for this person (api_key only for owners and admins), in order.' }),
    complete: Type.Boolean({ description: 'Every step listed is done.' }),
    hidden: Type.Boolean({ description: 'This person hid the checklist (kept per user, on every browser).' }),
    email_transport: StringEnum(['outbox', 'smtp'] as const, { description: 'outbox: development, nothing is delivered; the email step is done with smtp.' }),
  },
  { title: 'HubGettingStarted' },
);
export type GettingStarted = Static<typeof GettingStarted>;

export const GettingStartedBody = Type.Object({ hidden: Type.Boolean() }, { additionalProperties: false, title: 'HubGettingStartedChange' });
export type GettingStartedBody = Static<typeof GettingStartedBody>;
