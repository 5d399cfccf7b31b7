// The shapes the automation builder reads and writes (the issue 13 contract: src/hub/automations):
// the definition format (the fixture's automation with project_id and no ref), the editor the
// server answers with, the diff shown before publishing, versions, previews and test runs.
import type { REENROLL_RULES, StepType } from '@domain/automation';
import type { AutomationDiff as DomainDiff } from '@domain/automation-diff';
import type { Automation, AutomationRun } from '../automations/types';
export type { Automation, AutomationRun, StepType };

export type Reenroll = (typeof REENROLL_RULES)[number];

/** A condition on a contact field: a branch step's config and the Run-only-if filter. */
export interface Condition {
  field: string;
  op?: string;
  value?: unknown;
}

export interface Trigger {
  type: string | null;
  label: string;
  config: Record<string, unknown>;
}

export interface Step {
  id: string;
  name: string;
  type: StepType;
  config: Record<string, unknown>;
  next?: string;
  branches?: Record<string, string>;
}

export interface Definition {
  project_id: string;
  name: string;
  status: Automation['status'];
  trigger: Trigger;
  run_only_if: Condition | null;
  reenroll: Reenroll;
  steps: Step[];
}

/** What PUT …/draft takes: the editable parts of the definition. */
export type DraftBody = Pick<Definition, 'name' | 'trigger' | 'run_only_if' | 'reenroll' | 'steps'>;

export interface Problem {
  path: string;
  message: string;
}

export interface ProjectFacts {
  id: string;
  name: string;
  sms_consent_required: boolean;
  max_automations_per_contact: number;
}

export interface AutomationEditor {
  automation: Automation;
  draft: Definition;
  published: Definition | null;
  problems: Problem[];
  project: ProjectFacts;
  sms_micros_per_segment: number;
  webhook: { configured: boolean };
}

/** The server's diff (src/domain/automation-diff.ts) over the builder's steps. */
export type AutomationDiff = DomainDiff<Step>;

export interface VersionSummary {
  version: number;
  published_at: string;
  published_by: string | null;
}

export interface VersionDetail extends VersionSummary {
  definition: Definition;
}

export interface Preview {
  subject: string | null;
  body: string;
  segments?: number;
  encoding?: 'gsm7' | 'ucs2';
  micros?: number;
  contact: { id: string; name: string } | null;
}

export interface RunStep {
  step_id: string;
  name: string;
  type: string;
  status: string;
  started_at: string | null;
  ms: number;
  error: string | null;
}

export interface RunDetail extends AutomationRun {
  failed_step_id: string | null;
  steps: RunStep[];
}

export interface TestStarted {
  run: AutomationRun;
  tester_email: string;
}

export interface ContactSummary {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

export interface ListPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export const editorKey = (id: string) => ['hub', 'automations', id, 'editor'] as const;
