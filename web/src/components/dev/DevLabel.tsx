// The labels on what a development stand-in made (docs/architecture.md §10.5), read from what the
// server recorded when it happened (a step's provider, a message's transport), not from today's
// configuration: an AI output of the local provider, a message kept in the outbox.
import { Link } from 'react-router';
import './dev.css';

/** Where Settings explains how to make each provider real. */
export const PROVIDERS_HELP = '/settings#providers';

export function DevAiLabel() {
  return (
    <p className="dev-label">
      <span className="dev-label-tag">Development AI</span> echoes its input, nothing is billed by a model.{' '}
      <Link to={PROVIDERS_HELP}>Use a real model</Link>
    </p>
  );
}

export function KeptInOutboxLabel() {
  return (
    <span className="dev-label-tag" title="The development transport keeps messages in the outbox; nothing reached the recipient.">
      Kept in the outbox: not delivered
    </span>
  );
}
