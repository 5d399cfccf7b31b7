// A service's refusal: a rule the caller can act on (unknown automation, nothing to publish, a
// move the status table forbids). Its message is complete and names the record, for the CLI
// (printed with exit code 1, src/cli/refusal.ts); its code is the catalogue's, so the HTTP layer
// answers it in one place (src/http/error-handler.ts) and no route has to wrap a service call.

import type { ErrorCode } from '../domain/errors.js';

/** The catalogue codes a service refuses with (a missing record is resource_not_found). */
export type RefusalCode = Extract<
  ErrorCode,
  'resource_not_found' | 'workflow_changed' | 'workflow_empty' | 'automation_status_conflict' | 'automation_run_not_active' | 'automation_not_publishable'
>;

export interface RefusalOptions {
  /** The body path at fault, when there is one (a step's config field that blocks publishing). */
  param?: string;
  /**
   * What record is missing, in the API's words ("automation version"): the HTTP answer says "No
   * such automation version in this account.", never the ids and account the message names.
   */
  record?: string;
}

export class Refusal extends Error {
  override name = 'Refusal';
  readonly param?: string;
  readonly record?: string;

  constructor(
    message: string,
    readonly code: RefusalCode,
    opts: RefusalOptions = {},
  ) {
    super(message);
    this.param = opts.param;
    this.record = opts.record;
  }
}

/** A record that is not there (or not in this account): `record` names it for the API. */
export const missing = (record: string, message: string): Refusal => new Refusal(message, 'resource_not_found', { record });
