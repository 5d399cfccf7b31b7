// The Message as /hub/api/messages gives it (src/hub/messages/render.ts): what happened to one
// email or SMS, the recipient masked, never its subject or body.
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'failed', 'unknown'] as const;
export const MESSAGE_CHANNELS = ['email', 'sms', 'team'] as const;

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
}

export const CHANNEL_WORDS: Record<Message['channel'], string> = { email: 'Email', sms: 'SMS', team: 'Team' };
