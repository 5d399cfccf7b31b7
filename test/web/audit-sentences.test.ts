// The audit log in sentences (web/src/pages/audit/sentences.ts): every action the server records
// (AUDIT_ACTIONS) reads as a sentence naming the actor, never its code; the object is a link only
// while it exists; times read as people say them.
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../src/domain/audit';
import type { AuditEntry } from '../../web/src/data/audit';
import { AUDIT_WORDS, auditSentence, sentenceText } from '../../web/src/pages/audit/sentences';
import { whenWords } from '../../web/src/lib/when';

const entry = (action: string, more: Partial<AuditEntry> = {}, detail: Record<string, unknown> = {}): AuditEntry => ({
  id: '0190a0a0-0000-7000-8000-00000000000a',
  at: '2026-12-01T14:05:00.123Z',
  actor: { kind: 'user', id: '0190a0a0-0000-7000-8000-000000000001', label: 'Maya Lind <maya@example.com>', name: 'Maya Lind' },
  action,
  object: { kind: 'workflow', id: '0190a0a0-0000-7000-8000-000000000002', name: 'Website sync' },
  detail,
  ...more,
});

describe('audit sentences', () => {
  it.each(AUDIT_ACTIONS)('%s has a sentence and a label, without its code', (action) => {
    expect(AUDIT_WORDS[action].label).toMatch(/^[A-Z]/);
    const text = sentenceText(auditSentence(entry(action, {}, { name: 'X', email: 'lee@example.com', role: 'member', from: 'draft', to: 'active' })));
    expect(text).toMatch(/^Maya Lind [a-z]/);
    expect(text).not.toContain(action);
    expect(text).not.toMatch(/undefined|null|\[object/);
  });

  it('rolled key: the sentence of the issue, linked to the keys', () => {
    const parts = auditSentence(entry('key.rolled', { object: { kind: 'api_key', id: 'k', name: 'Website sync' } }, { name: 'Website sync', grace: '24h', old_key_expires_at: '2026-12-03T14:00:00Z' }));
    expect(parts).toContainEqual({ text: 'Website sync', to: '/keys' });
    expect(sentenceText(parts)).toMatch(/^Maya Lind rolled the key Website sync; the old one works until /);
    const none = auditSentence(entry('key.rolled', { object: { kind: 'api_key', id: 'k', name: 'W' } }, { grace: 'none', old_key_expires_at: '2026-12-01T14:05:00Z' }));
    expect(sentenceText(none)).toContain('the old one stopped at once');
  });

  it('an invitation: "Sam invited lee@example.com as a member"', () => {
    const e = entry('user.invited', { actor: { kind: 'user', id: null, label: 'Sam <sam@example.com>', name: null }, object: { kind: 'user', id: 'u', name: 'lee@example.com' } }, { email: 'lee@example.com', role: 'member', emailed: false });
    expect(sentenceText(auditSentence(e))).toBe('Sam invited lee@example.com as a member');
  });

  it('links only what still exists; a gone object keeps the name the entry recorded', () => {
    const gone = entry('workflow.deleted', { object: { kind: 'workflow', id: 'w', name: null } }, { name: 'Old digest' });
    expect(auditSentence(gone)).toEqual(['Maya Lind ', 'deleted the workflow ', 'Old digest']);
    const live = entry('workflow.updated', {}, { name: 'Website sync', blocks: 3 });
    expect(auditSentence(live)).toContainEqual({ text: 'Website sync', to: '/workflows/0190a0a0-0000-7000-8000-000000000002' });
    expect(sentenceText(auditSentence(live))).toBe('Maya Lind saved the workflow Website sync (3 blocks)');
  });

  it('names the operator, and a removed user by the name the entry kept', () => {
    expect(sentenceText(auditSentence(entry('run.started', { actor: { kind: 'operator', id: null, label: 'operator (CLI)', name: null } })))).toMatch(/^The operator started a run of Website sync$/);
    expect(sentenceText(auditSentence(entry('run.started', { actor: { kind: 'user', id: 'x', label: 'Ola <ola@example.com>', name: null } })))).toMatch(/^Ola started/);
    expect(sentenceText(auditSentence(entry('run.started', { actor: { kind: 'user', id: 'x', label: ' <ola@example.com>', name: null } })))).toMatch(/^ola@example.com started/);
  });

  it('an action this hub does not know yet still reads as words', () => {
    expect(sentenceText(auditSentence(entry('thing.frobbed')))).toBe('Maya Lind did “thing frobbed” to Website sync');
  });
});

describe('times in words', () => {
  const now = new Date(2026, 11, 3, 16, 0);
  it('today, yesterday, a date without the year this year, with it otherwise; never micros or ISO', () => {
    expect(whenWords(new Date(2026, 11, 3, 14, 5).toISOString(), now, 'en-GB')).toBe('today 14:05');
    expect(whenWords(new Date(2026, 11, 2, 9, 12).toISOString(), now, 'en-GB')).toBe('yesterday 09:12');
    expect(whenWords(new Date(2026, 10, 28, 14, 0).toISOString(), now, 'en-GB')).toBe('28 Nov, 14:00');
    expect(whenWords(new Date(2025, 0, 5, 8, 30).toISOString(), now, 'en-GB')).toBe('5 Jan 2025, 08:30');
  });
});
