// The one way a content page's HTML is shown (an item's page, the new page's preview).

/**
 * A page's HTML, only ever here: in an iframe with an empty sandbox (no script, no same origin, no
 * forms, no top navigation) fed by srcDoc, so even HTML the sanitiser missed cannot act.
 */
export function PageFrame({ html, title }: { html: string; title: string }) {
  return <iframe className="sandboxed" sandbox="" srcDoc={html} title={title} />;
}
