// A block's output as the run page shows it: text as text (never parsed as markup), HTML (a page
// a block made, or a document) in a sandboxed frame with no scripts, no forms and no same-origin
// access, so whatever the run produced cannot act in the hub.
import type { BlockOutput } from '../../data/runs';

export function Output({ output, title }: { output: BlockOutput; title: string }) {
  if (output.html !== null) {
    return (
      <iframe className="sandboxed" sandbox="" srcDoc={output.html} title={title} referrerPolicy="no-referrer" />
    );
  }
  if (output.text === '') return <p className="muted">(empty output)</p>;
  return (
    <pre className="runs-output-text" tabIndex={0} aria-label={title}>
      {output.text}
    </pre>
  );
}
