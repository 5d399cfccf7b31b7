// Starting points for the two builders (issue 25, item 8): data only, in the definition formats
// the hub's create routes take, without the project (the person picks it) and always as a draft:
// a starter never runs until someone reviews it and publishes or activates it. No workflow
// starter has a schedule, and no automation starter is published. test/hub/starters.test.ts runs
// every one through the server's own validator and create route. ("Starters", not "templates":
// template.ts is the Mustache text a step renders.)
import type { BlockKind } from './workflow.js';
import type { ReenrollRule, StepType, TriggerType } from './automation.js';
import { durationWords } from './duration-words.js';

export interface WorkflowStarter {
  id: string;
  title: string;
  /** One sentence for the card: what it makes. */
  summary: string;
  definition: {
    name: string;
    description: string;
    blocks: Array<{ id: string; kind: BlockKind; config: Record<string, unknown> }>;
    edges: Array<{ from: string; to: string }>;
  };
}

export interface AutomationStarter {
  id: string;
  title: string;
  summary: string;
  definition: {
    name: string;
    trigger: { type: TriggerType; label: string; config: Record<string, unknown> };
    run_only_if: { field: string; op: string; value?: string } | null;
    reenroll: ReenrollRule;
    steps: Array<{ id: string; name: string; type: StepType; config: Record<string, unknown>; next?: string }>;
  };
}

/** A chain a → b → c …: the edges of a workflow whose blocks run one after the other. */
const chain = (...ids: string[]) => ids.slice(1).map((to, i) => ({ from: ids[i]!, to }));

export const WORKFLOW_STARTERS: readonly WorkflowStarter[] = [
  {
    id: 'weekly-digest',
    title: 'Weekly digest to a page',
    summary: "Turns the week's notes into a short digest saved as a page.",
    definition: {
      name: 'Weekly digest',
      description: "Paste the week's notes in the first block; the AI writes a digest, saved as a page. Add a schedule to run it each week.",
      blocks: [
        { id: 'notes', kind: 'source.text', config: { text: "Paste this week's notes, links and updates here." } },
        { id: 'digest', kind: 'agent', config: { prompt: 'Write a friendly weekly digest of these notes: a two-line summary, then the highlights as a short list.\n\n{{notes}}' } },
        { id: 'page', kind: 'output.project', config: { title: 'Weekly digest' } },
      ],
      edges: chain('notes', 'digest', 'page'),
    },
  },
  {
    id: 'summarise-web-page',
    title: 'Summarise a web page',
    summary: 'Fetches a public page and saves a summary of it as a page.',
    definition: {
      name: 'Summarise a web page',
      description: 'Set the address in the first block; the AI summarises the page, saved as a page in the project.',
      blocks: [
        { id: 'web', kind: 'source.web', config: { url: 'https://example.com/' } },
        { id: 'summary', kind: 'agent', config: { prompt: 'Summarise this web page in five bullet points a busy reader can skim.\n\n{{web}}' } },
        { id: 'page', kind: 'output.project', config: { title: 'Summary' } },
      ],
      edges: chain('web', 'summary', 'page'),
    },
  },
  {
    id: 'blog-post-approval',
    title: 'Draft a blog post with approval',
    summary: 'Writes a blog post from a topic and waits for your approval before saving it.',
    definition: {
      name: 'Blog post draft',
      description: 'Write the topic in the first block; the AI drafts the post, a person approves it, then it is saved as a page.',
      blocks: [
        { id: 'topic', kind: 'source.text', config: { text: 'The topic, the audience and two or three points the post must make.' } },
        { id: 'draft', kind: 'agent', config: { prompt: 'Write a blog post of about 600 words with a title and short sections, on this brief:\n\n{{topic}}' } },
        { id: 'review', kind: 'approval', config: { message: 'Read the draft: approve to save it as a page, reject to drop it.' } },
        { id: 'page', kind: 'output.project', config: { title: 'Blog post draft' } },
      ],
      edges: chain('topic', 'draft', 'review', 'page'),
    },
  },
  {
    id: 'meeting-notes',
    title: 'Meeting notes cleanup',
    summary: 'Turns rough meeting notes into tidy minutes with decisions and action items.',
    definition: {
      name: 'Meeting notes cleanup',
      description: 'Paste the raw notes in the first block; the AI writes minutes with decisions and action items, saved as a page.',
      blocks: [
        { id: 'notes', kind: 'source.text', config: { text: 'Paste the raw meeting notes here.' } },
        {
          id: 'minutes',
          kind: 'agent',
          config: { prompt: 'Rewrite these meeting notes as clean minutes: attendees, decisions, then action items with an owner each.\n\n{{notes}}' },
        },
        { id: 'page', kind: 'output.project', config: { title: 'Meeting minutes' } },
      ],
      edges: chain('notes', 'minutes', 'page'),
    },
  },
  {
    id: 'social-post-ideas',
    title: 'Social post ideas',
    summary: 'Suggests five social posts about what you want to promote.',
    definition: {
      name: 'Social post ideas',
      description: 'Describe what to promote in the first block; the AI suggests five posts, saved as a page under a short heading.',
      blocks: [
        { id: 'brief', kind: 'source.text', config: { text: 'What to promote, who it is for, and the tone to use.' } },
        { id: 'ideas', kind: 'agent', config: { prompt: 'Suggest five short social media posts (under 280 characters each) for this brief:\n\n{{brief}}' } },
        { id: 'format', kind: 'transform.template', config: { template: 'Post ideas\n\n{{ideas}}' } },
        { id: 'page', kind: 'output.project', config: { title: 'Social post ideas' } },
      ],
      edges: chain('brief', 'ideas', 'format', 'page'),
    },
  },
];

/** An email step: its subject and a short HTML body (the engine adds the unsubscribe link). */
const email = (id: string, name: string, subject: string, body: string, next?: string) => ({
  id,
  name,
  type: 'email.send' as const,
  config: { subject, body },
  ...(next ? { next } : {}),
});
const wait = (id: string, duration: string, next: string) => ({ id, name: `Wait ${durationWords(duration)}`, type: 'wait' as const, config: { duration }, next });

export const AUTOMATION_STARTERS: readonly AutomationStarter[] = [
  {
    id: 'welcome-series',
    title: 'Welcome series',
    summary: 'Three emails over a week for every new contact.',
    definition: {
      name: 'Welcome series',
      trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
      run_only_if: null,
      reenroll: 'never',
      steps: [
        email('welcome', 'Welcome email', 'Welcome, {{first_name}}!', '<p>Hi {{first_name}},</p><p>Thanks for joining us. Here is what to expect.</p>', 'wait1'),
        wait('wait1', 'P2D', 'tips'),
        email('tips', 'Getting started tips', 'Three tips to get started', '<p>Hi {{first_name}},</p><p>Here are three things our customers love.</p>', 'wait2'),
        wait('wait2', 'P5D', 'checkin'),
        email('checkin', 'Check-in', 'How is it going, {{first_name}}?', '<p>Hi {{first_name}},</p><p>Just checking in: reply to this email with any question.</p>'),
      ],
    },
  },
  {
    id: 're-engagement',
    title: 'Re-engagement',
    summary: 'Wins back contacts tagged "inactive" with a friendly note and a follow-up.',
    definition: {
      name: 'Re-engagement',
      trigger: { type: 'manual', label: 'Enrolled', config: {} },
      run_only_if: { field: 'tags', op: 'contains', value: 'inactive' },
      reenroll: 'after_exit',
      steps: [
        email('miss', 'We miss you', 'We miss you, {{first_name}}', '<p>Hi {{first_name}},</p><p>It has been a while. Here is what is new since your last visit.</p>', 'wait'),
        wait('wait', 'P7D', 'offer'),
        email('offer', 'A last note', 'Still interested?', '<p>Hi {{first_name}},</p><p>If you would like to hear from us, simply reply to this email.</p>', 'tag'),
        { id: 'tag', name: 'Tag as asked', type: 'tag.add', config: { tag: 're-engagement-sent' } },
      ],
    },
  },
  {
    id: 'renewal-reminder',
    title: 'Renewal reminder',
    summary: 'Reminds a customer a month and a week before renewal, and tells your team.',
    definition: {
      name: 'Renewal reminder',
      trigger: { type: 'manual', label: 'Enrolled', config: {} },
      run_only_if: { field: 'lifecycle_stage', op: 'eq', value: 'customer' },
      reenroll: 'after_exit',
      steps: [
        email('month', 'A month before', 'Your plan renews next month', '<p>Hi {{first_name}},</p><p>Your plan renews in 30 days. Nothing to do if all is well.</p>', 'wait'),
        wait('wait', 'P23D', 'week'),
        email('week', 'A week before', 'Your plan renews in a week', '<p>Hi {{first_name}},</p><p>A reminder: your plan renews in seven days.</p>', 'team'),
        { id: 'team', name: 'Tell the team', type: 'notify.team', config: { subject: 'Renewal in a week: {{name}}', body: '{{name}} ({{email}}) renews in a week.' } },
      ],
    },
  },
  {
    id: 'abandoned-signup',
    title: 'Abandoned-signup nudge',
    summary: 'Nudges a new lead who has not finished signing up, then asks your team to follow up.',
    definition: {
      name: 'Abandoned-signup nudge',
      trigger: { type: 'contact.created', label: 'Contact is created', config: {} },
      run_only_if: { field: 'lifecycle_stage', op: 'eq', value: 'lead' },
      reenroll: 'never',
      steps: [
        wait('wait1', 'P1D', 'nudge'),
        email('nudge', 'Nudge', 'Finish setting up your account', '<p>Hi {{first_name}},</p><p>You are one step away: finish signing up to get started.</p>', 'wait2'),
        wait('wait2', 'P3D', 'task'),
        { id: 'task', name: 'Follow-up task', type: 'task.create', config: { title: 'Call {{name}} about their sign-up', description: 'They started signing up four days ago.' } },
      ],
    },
  },
  {
    id: 'anniversary',
    title: 'Birthday or anniversary',
    summary: 'Sends a greeting each time a contact is enrolled on their day.',
    definition: {
      name: 'Anniversary greeting',
      trigger: { type: 'manual', label: 'Enrolled', config: {} },
      run_only_if: null,
      reenroll: 'always',
      steps: [
        email('greeting', 'Greeting', 'Happy anniversary, {{first_name}}!', '<p>Hi {{first_name}},</p><p>Thank you for another year with us.</p>', 'tag'),
        { id: 'tag', name: 'Tag as greeted', type: 'tag.add', config: { tag: 'anniversary-greeted' } },
      ],
    },
  },
];

/** The body POST /hub/api/workflows takes: the starter in a project, a draft with no schedule. */
export function workflowFromStarter(s: WorkflowStarter, projectId: string) {
  return { ...s.definition, project_id: projectId, status: 'draft' as const, schedule: null, schedule_timezone: 'UTC' };
}

/** The body POST /hub/api/automations takes: the starter in a project, a draft (never published). */
export function automationFromStarter(s: AutomationStarter, projectId: string) {
  return { ...s.definition, project_id: projectId, status: 'draft' as const };
}
