// The automation builder (automations/:id/build): the trigger and the steps as a vertical flow on
// the left, the settings, Send test and the versions on the right. The draft is saved as you go;
// the server's problems (step settings that block publishing) and a refused save's error are shown
// on the steps and fields they concern. One request to open: GET …/editor.
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { QueryState } from '../../components/states';
import { automationEditorQuery, type AutomationEditor } from '../../data/automations';
import { BuilderHeader } from './BuilderHeader';
import { Labelled } from './ui';
import { issuesOf, mergeIssues } from './model';
import { SettingsCard } from './SettingsCard';
import { StepFlow } from './StepFlow';
import { TestPanel } from './TestPanel';
import { TriggerCard } from './TriggerCard';
import { useDraft } from './useDraft';
import { triggerWords } from './words';
import { VersionsPanel } from './VersionsPanel';
import './builder.css';

function Builder({ id, editor }: { id: string; editor: AutomationEditor }) {
  const { draft, change, setSteps, save, refusal, flush, retry } = useDraft(id, editor);
  // The editor's problems name the steps as they were last saved (the draft the server holds).
  const problems = issuesOf(editor.problems, editor.draft.steps);
  const issues = mergeIssues(refusal, problems);
  const general = issues.get('') ?? new Map<string, string>();
  const issue = (path: string) => general.get(path);
  return (
    <section aria-labelledby="builder-title" className="builder">
      <BuilderHeader automation={editor.automation} name={draft.name} save={save} retry={() => void retry()} blocked={editor.problems.length} flush={flush} trigger={triggerWords(draft.trigger.type)} />
      <div className="builder-grid">
        <div className="builder-main">
          <div className="card">
            <Labelled label="Automation name" error={issue('name')}>
              {(a) => <input {...a} value={draft.name} maxLength={200} required onChange={(e) => change((d) => ({ ...d, name: e.target.value }))} />}
            </Labelled>
          </div>
          <TriggerCard automationId={id} draft={draft} change={change} webhookConfigured={editor.webhook.configured} issue={issue} />
          <section aria-labelledby="steps-title">
            <h2 id="steps-title">Steps</h2>
            {issue('steps') && <p className="field-error">{issue('steps')}</p>}
            <StepFlow
              steps={draft.steps}
              setSteps={setSteps}
              issues={issues}
              microsPerSegment={editor.sms_micros_per_segment}
              consentRequired={editor.project.sms_consent_required}
            />
          </section>
        </div>
        <aside className="builder-side" aria-label="Settings, test and versions">
          <SettingsCard reenroll={draft.reenroll} onReenroll={(r) => change((d) => ({ ...d, reenroll: r }))} project={editor.project} error={issue('reenroll')} />
          <TestPanel automationId={id} flush={flush} />
          <VersionsPanel editor={editor} />
        </aside>
      </div>
    </section>
  );
}

export default function AutomationBuilder() {
  const { id = '' } = useParams();
  const q = useQuery(automationEditorQuery(id));
  // The draft is read once (keyed by id): later answers refresh what the server knows, never what is being typed.
  return <QueryState q={q}>{(editor) => <Builder key={id} id={id} editor={editor} />}</QueryState>;
}
