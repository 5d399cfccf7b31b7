// The Message as /hub/api/messages gives it (src/hub/messages/render.ts): what happened to one
// email or SMS, the recipient masked, never its subject or body.
import { OUTBOX_STATUSES as MESSAGE_STATUSES, MESSAGE_CHANNELS } from '@domain/message';
export { MESSAGE_STATUSES, MESSAGE_CHANNELS };

export interface Message {
  id: string;
  channel: (typeof MESSAGE_CHANNELS)[number];
  status: (typeof MESSAGE_STATUSES)[number];
  to: string;
  automation: { id: string; name: string } | null;
  automation_run_id: string | null;
  contact: { id: string; name: string } | null;
  attempts: number;
  created_at: string;
  sent_at: string | null;
  error: string | null;
  /** Sent by a test run from the builder (only to the person testing). */
  test?: boolean;
}

export const CHANNEL_WORDS: Record<Message['channel'], string> = { email: 'Email', sms: 'SMS', team: 'Team' };
