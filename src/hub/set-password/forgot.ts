// "Forgot password?" on the sign-in page. GET says whether this hub can email a link at all (with
// the development outbox it cannot: the page says to ask an owner or admin instead). POST takes an
// address and answers at once, the same for every address: the lookup and the emails happen after
// the answer, one request after another, so neither the answer nor its timing says whether
// the address belongs to anyone. Limited per address and per email asked about (429, counted
// whether or not the email exists); services/users/reset.ts also sends a user at most one such
// email per FORGOT_PASSWORD_EMAIL_GAP_MS.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors.js';
import { FORGOT_PASSWORD_PER_ADDRESS, FORGOT_PASSWORD_PER_EMAIL } from '../../domain/hub.js';
import type { AppDeps } from '../../http/deps.js';
import type { App } from '../../http/route-kit.js';
import { checkEmail } from '../../lib/email.js';
import { sendsEmail } from '../../services/users/mail.js';
import { emailForgottenPasswordLinks } from '../../services/users/reset.js';
import { hubRoute } from '../kit.js';
import { addressBucket, emailKey } from '../session/throttle.js';
import { ForgotAnswer, ForgotBody } from './schemas.js';

/** Work run after the answer, one job at a time (a burst of requests queues, it does not fan out). */
class AfterAnswer {
  private tail: Promise<void> = Promise.resolve();
  run(job: () => Promise<unknown>, onError: (err: unknown) => void): void {
    this.tail = this.tail.then(job).then(() => undefined, onError);
  }
  /** Resolves when every job queued so far is done (the app waits for it as it closes). */
  drained(): Promise<void> {
    return this.tail;
  }
}

async function admit(request: FastifyRequest, deps: AppDeps, email: string): Promise<void> {
  const counter = deps.counters.failedAuth;
  const [byAddress, byEmail] = await Promise.all([counter.hit(`fp:a:${addressBucket(request.ip)}`), counter.hit(`fp:e:${emailKey(email)}`)]);
  const over = byAddress.count > FORGOT_PASSWORD_PER_ADDRESS ? byAddress : byEmail.count > FORGOT_PASSWORD_PER_EMAIL ? byEmail : null;
  if (!over) return;
  const seconds = Math.max(1, Math.ceil(over.resetMs / 1000));
  throw new ApiError('too_many_link_requests', `Too many requests for a new password link. Wait ${seconds} seconds and try again.`, {
    headers: { 'retry-after': String(seconds) },
  });
}

export function registerHubForgotPasswordRoutes(hub: App, deps: AppDeps): void {
  const work = new AfterAnswer();
  hub.addHook('onClose', () => work.drained());

  hub.get('/forgot-password', hubRoute('public', {
    operationId: 'hubForgotPasswordState',
    summary: 'Whether this hub can email a new password link',
    response: { 200: ForgotAnswer },
  }), async () => ({ sends_email: sendsEmail(deps.config) }));

  hub.post('/forgot-password', hubRoute('public', {
    operationId: 'hubForgotPassword',
    summary: 'Email a new set-password link to the users with this address (the answer is the same whether there are any)',
    body: ForgotBody,
    response: { 202: ForgotAnswer },
  }), async (request, reply) => {
    const checked = checkEmail(request.body.email.trim());
    if (!checked.ok) throw new ApiError('invalid_field', `The email is not valid: ${checked.problem}.`, { param: 'email' });
    await admit(request, deps, checked.email);
    const sends = sendsEmail(deps.config);
    if (sends) {
      work.run(
        () => emailForgottenPasswordLinks(deps.db, checked.email, deps.config),
        // Never the address: the log must not say who asked about whom.
        (err) => request.log.error({ err: { message: (err as Error).message } }, 'a forgot-password email could not be queued'),
      );
    }
    return reply.code(202).send({ sends_email: sends });
  });
}
