// What the publish dialog says besides the steps (issue 25, item 10): the Run-only-if filter that
// will apply (always, changed or not: it decides who is skipped), and each other setting that
// changed since the running version, old → new, in words. Both sides come with the diff
// (GET …/diff `settings`), read fresh when the dialog opens.
import type { AutomationDiff } from '../../data/automations';
import { conditionWords, REENROLL_WORDS, triggerWords } from './words';

type Settings = AutomationDiff['settings']['draft'];

/** What starts it, with a schedule's own timing (a cron change is a trigger change too). */
function triggerLine(t: Settings['trigger']): string {
  const words = triggerWords(t.type);
  const { cron, timezone } = t.config as { cron?: unknown; timezone?: unknown };
  return t.type === 'schedule' && typeof cron === 'string' ? `${words} (${cron}${typeof timezone === 'string' ? `, ${timezone}` : ''})` : words;
}
const filterLine = (s: Settings) => (s.run_only_if ? conditionWords(s.run_only_if) : 'no filter (every contact it starts for)');
const reenrollLine = (s: Settings) => REENROLL_WORDS[s.reenroll] ?? s.reenroll;

export function SettingChanges({ diff }: { diff: AutomationDiff }) {
  const { published: before, draft: after } = diff.settings;
  const changes: Array<[string, string, string]> = [];
  if (before) {
    if (diff.name_changed) changes.push(['Name', `“${before.name}”`, `“${after.name}”`]);
    if (diff.trigger_changed) changes.push(['Starts when', triggerLine(before.trigger), triggerLine(after.trigger)]);
    if (diff.run_only_if_changed) changes.push(['Run only if', filterLine(before), filterLine(after)]);
    if (diff.reenroll_changed) changes.push(['Re-enrollment', reenrollLine(before), reenrollLine(after)]);
  }
  return (
    <div className="automations-settings">
      <p>
        <strong>Run only if:</strong>{' '}
        {after.run_only_if ? (
          <>
            {conditionWords(after.run_only_if)} <span className="muted">(a contact who does not match is skipped when the trigger starts a run)</span>
          </>
        ) : (
          'no filter: it runs for every contact it starts for.'
        )}
      </p>
      {!before && (
        <p>
          <strong>Re-enrollment:</strong> {reenrollLine(after)}.
        </p>
      )}
      {changes.length > 0 && (
        <ul className="automations-diff-other" aria-label="Settings changed">
          {changes.map(([what, was, now]) => (
            <li key={what}>
              {what}: {was} → {now}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
