// What a refusal says to a person: one sentence and, where there is one, the next step (a link to
// the existing contact, the screen to go to, when to try again). Every code of the catalogue
// (src/domain/errors.ts, both tables) has its words here: the Record below does not compile
// without one, and test/web/error-words.test.ts checks it at run time too, so a new code cannot
// reach the screen as raw text. The code and the request id stay available behind "Details"
// (components/states.tsx), never in the sentence.
import type { ErrorCode } from '@domain/errors';

/** The parts of a refusal the words are made from (a HubError, or anything shaped like one). */
export interface Refusal {
  status: number;
  code: string;
  /** The server's own message: the fallback for a code this file does not know. */
  message: string;
  param?: string;
  resourceId?: string | null;
  /** Seconds from the Retry-After header, when the answer had one. */
  retryAfter?: number | null;
}

export interface ErrorWords {
  message: string;
  /** The next step: a sentence, with a link in the hub when `to` is set. */
  next?: { text: string; to?: string };
  /** false: nothing to quote to an operator (a wrong password): no code, no request id. */
  details: boolean;
}

type Wording = (r: Refusal) => { message: string; next?: ErrorWords['next']; details?: false };

// Field names as a form labels them; anything else is the last part of the path in words.
const FIELD_WORDS: Record<string, string> = {
  email: 'email address',
  first_name: 'first name',
  last_name: 'last name',
  phone: 'phone number',
  name: 'name',
  password: 'password',
  account_name: 'account name',
  setup_token: 'set-up token',
  expires_at: 'expiry date',
  monthly_spend_cap_micros: 'monthly spend cap',
  max_automations_per_contact: 'limit of automations per contact',
  schedule: 'schedule',
  schedule_timezone: 'time zone',
  timezone: 'time zone',
  cron: 'schedule',
  lifecycle_stage: 'lifecycle stage',
  sms_consent: 'SMS consent',
  scopes: 'scopes',
  role: 'role',
  tags: 'tags',
};

/** "blocks[2].config.prompt" → "prompt"; "monthly_spend_cap_micros" → "monthly spend cap". */
export function fieldWords(param: string): string {
  if (FIELD_WORDS[param]) return FIELD_WORDS[param];
  const last = param.split('.').pop()!.replace(/\[\d+\]$/, '');
  return FIELD_WORDS[last] ?? last.replace(/_(micros|id|at)$/, '').replace(/_/g, ' ');
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** "in 30 seconds", "in 2 minutes", "in about an hour". */
export function waitWords(seconds: number): string {
  if (seconds <= 1) return 'in a second';
  if (seconds < 60) return `in ${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return minutes === 1 ? 'in a minute' : `in ${minutes} minutes`;
  return 'in about an hour';
}

const tryLater = (r: Refusal, fallback: string): ErrorWords['next'] => ({ text: r.retryAfter ? `Try again ${waitWords(r.retryAfter)}.` : fallback });

/** A field's refusal: the server names the field by its path, a person reads its label. */
function fieldProblem(r: Refusal, what: string): { message: string } {
  if (!r.param) return { message: `${cap(what)}: ${r.message}` };
  const words = fieldWords(r.param);
  // The server's sentence usually starts with the path ("email must be …"): the label replaces it.
  const rest = r.message.startsWith(r.param) ? r.message.slice(r.param.length).trim() : null;
  if (rest) return { message: `${cap(words)} ${rest}` };
  // A sentence the server already wrote for people ("The email is not valid: …") stands as it is.
  return { message: /^[A-Z]/.test(r.message) ? r.message : `Check the ${words}: ${r.message}` };
}

const thingOf = (message: string): string => /^No such (.+?) in this account/i.exec(message)?.[1] ?? 'thing';

const ASK_ADMIN = { text: 'Ask an owner or admin of this account.' };
const RELOAD = { text: 'Reload the page and try again.' };

export const ERROR_WORDS: Record<ErrorCode, Wording> = {
  // The spec's catalogue. Most reach the hub only through a bug or an old page; they still read well.
  invalid_parameter: (r) => fieldProblem(r, 'this address has a value that cannot be used'),
  unknown_parameter: () => ({ message: 'This address has something the hub does not understand.', next: { text: 'Go back and open the page again.' } }),
  invalid_id: () => ({ message: 'This link does not point to anything the hub knows.', next: { text: 'Check the link, or find the item in its list.' } }),
  invalid_cursor: () => ({ message: 'This list page is out of date.', next: { text: 'Go back to the first page of the list.' } }),
  invalid_json: () => ({ message: 'The form could not be sent in a form the server reads.', next: RELOAD }),
  missing_idempotency_key: () => ({ message: 'The request was missing a safety key the server needs.', next: RELOAD }),
  missing_field: (r) => ({ message: r.param ? `Fill in the ${fieldWords(r.param)}.` : 'A required field is empty.' }),
  invalid_idempotency_key: () => ({ message: 'The request carried a safety key the server cannot use.', next: RELOAD }),
  invalid_api_key: () => ({ message: 'The API key is missing or unknown.', next: { text: 'Check the key, or create one under API keys.', to: '/keys' } }),
  api_key_revoked: () => ({ message: 'This API key was revoked and no longer works.', next: { text: 'Create a new key under API keys.', to: '/keys' } }),
  api_key_expired: () => ({ message: 'This API key has expired.', next: { text: 'Create or roll a key under API keys.', to: '/keys' } }),
  account_out_of_credit: () => ({ message: 'The account has no AI credit left, so nothing was started.', next: { text: 'See the balance on Usage.', to: '/usage' } }),
  key_spend_cap_reached: () => ({ message: 'This key has spent its monthly cap.', next: { text: 'Raise the cap under API keys, or wait for next month.', to: '/keys' } }),
  insufficient_scope: (r) => ({ message: `This key may not do that: ${r.message}`, next: { text: 'Give the key the scope under API keys.', to: '/keys' } }),
  account_suspended: () => ({ message: 'This account is suspended, so nothing can be changed.', next: { text: 'Ask the operator of this hub to lift the suspension.' } }),
  account_closed: () => ({ message: 'This account is closed.', next: { text: 'Ask the operator of this hub if that is a mistake.' } }),
  subscription_inactive: () => ({ message: 'The plan has ended, so the account is read-only.', next: { text: 'Ask the operator of this hub to renew it.' } }),
  resource_not_found: (r) => ({ message: `This ${thingOf(r.message)} is not in this account: it may have been deleted, or the link is wrong.`, next: { text: 'Go back to the list and pick it again.' } }),
  route_not_found: () => ({ message: 'There is nothing at this address.', next: { text: 'Go back to the start.', to: '/' } }),
  api_not_available: () => ({ message: 'The API is not open yet on this server.', next: { text: 'Ask the operator of this hub.' } }),
  method_not_allowed: () => ({ message: 'The server does not take this action here.', next: RELOAD }),
  idempotency_in_progress: () => ({ message: 'The same request is still being handled.', next: { text: 'Wait a few seconds, then look again.' } }),
  idempotency_outcome_unknown: () => ({ message: 'An earlier attempt of this request did not finish, so it was not repeated.', next: { text: 'Check whether it happened before trying again.' } }),
  automation_not_published: () => ({ message: 'This automation is a draft or paused, so it cannot start.', next: { text: 'Publish or resume it first.' } }),
  contact_exists: (r) => ({ message: 'A contact with this email already exists.', next: r.resourceId ? { text: 'Open that contact', to: `/contacts/${r.resourceId}` } : { text: 'Find them in Contacts.', to: '/contacts' } }),
  contact_do_not_contact: () => ({ message: 'This address belongs to someone who was erased at their request; it cannot be added again.' }),
  opt_out_locked: () => ({ message: 'This person opted out of email; only they can opt back in.' }),
  body_too_large: () => ({ message: 'This is too large to save (the limit is 1 MB).', next: { text: 'Make it shorter and try again.' } }),
  page_too_large: () => ({ message: 'This page is too large once turned into HTML.', next: { text: 'Make it shorter and try again.' } }),
  unsupported_media_type: () => ({ message: 'The form could not be sent in a form the server reads.', next: RELOAD }),
  unknown_field: (r) => ({ message: r.param ? `The ${fieldWords(r.param)} is not something this form can save.` : 'The form sent something the server does not take.', next: RELOAD }),
  invalid_body: () => ({ message: 'The form could not be sent in a form the server reads.', next: RELOAD }),
  invalid_field: (r) => fieldProblem(r, 'a value cannot be used'),
  workflow_empty: () => ({ message: 'This workflow has no blocks yet.', next: { text: 'Add a block in the builder first.' } }),
  idempotency_key_reused: () => ({ message: 'This request repeats an earlier one that was different.', next: RELOAD }),
  rate_limited: (r) => ({ message: 'Too many requests in a short time.', next: tryLater(r, 'Wait a minute and try again.') }),
  too_many_failed_auth: (r) => ({ message: 'Too many attempts with a wrong key from this address.', next: tryLater(r, 'Wait a minute and try again.') }),
  run_rate_limited: (r) => ({ message: 'The account started as many runs this minute as its plan allows.', next: tryLater(r, 'Wait a minute and try again.') }),
  concurrency_limited: (r) => ({ message: 'The account has as many runs going as its plan allows.', next: tryLater(r, 'Try again when one of them has finished.') }),
  internal_error: () => ({ message: 'Something went wrong on the server.', next: { text: 'Try again; if it keeps happening, give the operator the request id from Details.' } }),

  // The hub's own.
  not_signed_in: () => ({ message: 'You are signed out.', next: { text: 'Sign in again', to: '/sign-in' } }),
  sign_in_failed: () => ({ message: 'Wrong email or password.', details: false }),
  csrf_failed: () => ({ message: 'This page is out of step with your session.', next: RELOAD }),
  role_forbidden: () => ({ message: 'Owners and admins only.', next: ASK_ADMIN }),
  setup_token_required: () => ({ message: 'Setting up from another computer needs the set-up token the server wrote when it started.', next: { text: 'Copy it from the file setup-token in the server’s data directory (or from its terminal) into the Set-up token field.' } }),
  account_not_chosen: () => ({ message: 'Pick an account first.', next: { text: 'Choose an account', to: '/accounts' } }),
  setup_done: () => ({ message: 'This hub is already set up.', next: { text: 'Sign in', to: '/sign-in' } }),
  user_exists: () => ({ message: 'A user with this email is already in this account.', next: { text: 'Find them on the Users screen', to: '/users' } }),
  last_owner: () => ({ message: 'The account needs at least one owner, so its last owner cannot be removed or given another role.', next: { text: 'Make someone else an owner first.' } }),
  run_not_awaiting_approval: () => ({ message: 'This run is no longer waiting for approval.', next: { text: 'Reload the run to see where it is.' } }),
  // The server says which of its reasons applies (still going, succeeded, workflow deleted) in words.
  run_cannot_run_again: (r) => ({ message: r.message, next: { text: "Start a new run with Run now on the workflow's page." } }),
  // The server's sentence says why (its status, a re-send already made, the contact's opt-out).
  message_cannot_resend: (r) => ({ message: r.message, next: r.resourceId ? { text: 'Open the message that re-sent it.', to: `/messages/${r.resourceId}` } : undefined }),
  run_already_final: () => ({ message: 'This run has already ended.', next: { text: 'Reload the run to see how it ended.' } }),
  user_has_keys: () => ({ message: 'This user created API keys that still work.', next: { text: 'Revoke or roll those keys first.', to: '/keys' } }),
  key_limit_reached: () => ({ message: 'The account already has 10 active keys.', next: { text: 'Revoke one you no longer use first.' } }),
  key_not_active: () => ({ message: 'Only a working key can be rolled: this one is revoked, expired or already rolled.' }),
  invalid_link: () => ({ message: 'This link has been used or has expired.', next: { text: 'Ask an owner or admin for a new one.' } }),
  wrong_password: () => ({ message: 'That is not your current password.', next: { text: 'Type the password you sign in with now; if you forgot it, sign out and use "Forgot password?".' }, details: false }),
  email_needs_delivery: () => ({ message: 'A new email is confirmed by a link sent to it, and this hub cannot send email yet.', next: ASK_ADMIN }),
  too_many_link_requests: (r) => ({ message: 'Too many requests for a set-password link.', next: tryLater(r, 'Wait a few minutes and try again.'), details: false }),
  block_tests_limited: (r) => ({ message: 'Blocks were tested as often as a minute allows.', next: tryLater(r, 'Wait a minute and test again.') }),
  too_many_sign_ins: (r) => ({ message: 'Too many failed sign-ins.', next: tryLater(r, 'Wait a minute and try again.'), details: false }),
  automation_status_conflict: (r) => ({ message: `This automation cannot make that move now: ${r.message}`, next: { text: 'Reload it to see its status.' } }),
  automation_not_publishable: (r) => (r.param ? { message: `Not ready to publish: ${fieldProblem(r, 'a setting').message}` } : { message: `Not ready to publish: ${r.message}` }),
  workflow_changed: () => ({ message: 'Someone else saved this workflow while you were editing it.', next: { text: 'Reload it to see their version.' } }),
  work_area_open: () => ({ message: 'This project already uses work management.', next: { text: 'Rename its key prefix instead.' } }),
  work_item_changed: () => ({ message: 'Someone else changed this item while you were editing it.', next: { text: 'Reload it to see their version, then make your change again.' } }),
  sprint_state_conflict: () => ({ message: 'This sprint cannot make that move in its state now.', next: { text: 'Reload the sprints to see where each one stands.' } }),
  not_your_comment: () => ({ message: 'Only the person who wrote a comment can edit or delete it.' }),
  automation_run_not_active: () => ({ message: 'This automation run has already ended.', next: { text: 'Reload it to see how it ended.' } }),
};

// Refusals the browser makes up itself (api.ts): no server, or an answer that was not JSON.
const CLIENT_WORDS: Record<string, Wording> = {
  network_error: () => ({ message: 'The server could not be reached.', next: { text: 'Check the connection and try again.' } }),
  unexpected_response: (r) => ({ message: `The server gave an answer the hub did not expect (${r.status}).`, next: RELOAD }),
};

/** The words for a refusal; a code nobody wrote words for keeps the server's own message. */
export function errorWords(r: Refusal): ErrorWords {
  const wording = (ERROR_WORDS as Record<string, Wording | undefined>)[r.code] ?? CLIENT_WORDS[r.code];
  if (!wording) return { message: r.message, details: true };
  const w = wording(r);
  return { message: w.message, next: w.next, details: w.details ?? true };
}

/** The message to put on a form's field, when the refusal names that field (param). */
export function fieldError(err: unknown, param: string): string | undefined {
  const r = err as Partial<Refusal> | null | undefined;
  if (!r || typeof r !== 'object' || r.param !== param || typeof r.code !== 'string') return undefined;
  return errorWords(r as Refusal).message;
}
