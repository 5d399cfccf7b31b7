// Settings → Providers: the AI, email and SMS providers this server runs with, what each one does
// and how the operator makes a development stand-in real (environment variables, then a restart).
// The shell's development banner links here (#providers).
import { useQuery } from '@tanstack/react-query';
import { Fragment, useEffect, useRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { QueryState } from '../../components/states';
import { providersQuery, type Providers } from '../../data/providers';

interface Row {
  name: string;
  now: string;
  change: string;
}

function rows(p: Providers): Row[] {
  return [
    {
      name: 'AI',
      now: p.llm.development
        ? 'Development stand-in (local): it echoes the first sentences of its input; no model is called and nothing is billed by one.'
        : 'An OpenAI-compatible model: AI blocks and steps call it, and its tokens are billed.',
      change: p.llm.development
        ? 'Set SWITCHBOARD_LLM_PROVIDER=openai-compatible with SWITCHBOARD_LLM_BASE_URL (and SWITCHBOARD_LLM_API_KEY, SWITCHBOARD_LLM_MODEL).'
        : 'SWITCHBOARD_LLM_BASE_URL, SWITCHBOARD_LLM_API_KEY and SWITCHBOARD_LLM_MODEL choose the model.',
    },
    {
      name: 'Email',
      now: p.email.development
        ? 'Development stand-in (outbox): emails are kept in the outbox and marked sent; none is delivered.'
        : 'SMTP: emails are delivered through the configured mail server.',
      change: p.email.development
        ? 'Set SWITCHBOARD_EMAIL_TRANSPORT=smtp with SWITCHBOARD_SMTP_URL (and SWITCHBOARD_EMAIL_FROM).'
        : 'SWITCHBOARD_SMTP_URL and SWITCHBOARD_EMAIL_FROM choose the server and the sender.',
    },
    {
      name: 'SMS',
      now: p.sms.development
        ? 'Development stand-in (outbox): texts are kept in the outbox and marked sent; none is delivered.'
        : 'HTTP: texts are handed to the configured SMS provider.',
      change: p.sms.development
        ? 'Set SWITCHBOARD_SMS_TRANSPORT=http with SWITCHBOARD_SMS_WEBHOOK_URL (and SWITCHBOARD_SMS_WEBHOOK_TOKEN).'
        : 'SWITCHBOARD_SMS_WEBHOOK_URL and SWITCHBOARD_SMS_WEBHOOK_TOKEN choose the provider.',
    },
  ];
}

/** The environment variables (and their values) in a sentence set as code. */
function withNames(sentence: string): ReactNode[] {
  return sentence.split(/(SWITCHBOARD_[A-Z0-9_]+(?:=[a-z-]+)?)/).map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
}

export function ProvidersCard() {
  const q = useQuery(providersQuery());
  const ref = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  // Reached from the development banner's link: bring the card into view once it is drawn.
  useEffect(() => {
    if (hash === '#providers' && q.data) ref.current?.scrollIntoView({ block: 'start' });
  }, [hash, q.data]);
  return (
    <section className="card" id="providers" ref={ref} aria-labelledby="providers-heading">
      <h2 id="providers-heading">Providers</h2>
      <p className="muted">
        Set by the operator of this Switchboard in its environment; a change takes effect when the server restarts.
      </p>
      <QueryState q={q}>
        {(p) => (
          <dl className="facts settings-providers">
            {rows(p).map((r) => (
              <Fragment key={r.name}>
                <dt>{r.name}</dt>
                <dd>
                  {r.now}
                  <p className="settings-providers-change">{withNames(r.change)}</p>
                </dd>
              </Fragment>
            ))}
          </dl>
        )}
      </QueryState>
    </section>
  );
}
