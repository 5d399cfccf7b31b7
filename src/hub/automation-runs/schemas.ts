// The hub's automation run page (issue 25, item 4): /v1's run detail plus what a person reads on
// it: the automation's name, and for each step its type in words, what it did in words, and the
// messages it queued (each opens the message page). Pure: TypeBox, src/domain and other schema
// modules only, for the web app too.
import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../../http/schemas.js';
import { AutomationRunDetail, AutomationRunStep } from '../../api/automation-runs/schemas.js';
import { MessageChannel, MessageStatus } from '../messages/schemas.js';

/** A message a step queued, as the run page links it (no title: inline in the run's document). */
export const StepMessage = Type.Object({ id: Uuid, channel: MessageChannel, status: MessageStatus });
export type StepMessage = Static<typeof StepMessage>;

export const HubRunStep = Type.Object({
  ...AutomationRunStep.properties,
  type_label: Type.String({ description: 'The step type in words ("Send email"; "Trigger" for t).' }),
  did: Type.String({ description: 'What the step did, in words ("Waited 1 day", "Sent the email “Welcome”").' }),
  messages: Type.Array(StepMessage, { description: 'The messages it queued, oldest first.' }),
});
export type HubRunStep = Static<typeof HubRunStep>;

export const HubAutomationRunDetail = Type.Object(
  {
    ...AutomationRunDetail.properties,
    automation: Type.Object({ id: Uuid, name: Type.String() }),
    steps: Type.Array(HubRunStep, { description: 'Steps run so far, in order, the trigger first.' }),
  },
  { title: 'HubAutomationRunDetail' },
);
export type HubAutomationRunDetail = Static<typeof HubAutomationRunDetail>;
