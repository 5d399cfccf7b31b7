// A message's body as it was sent. An email's HTML is someone's content (a template, AI text, a
// contact's own fields) and may carry scripts, tracking pixels or forms: it is shown only in an
// iframe with an empty sandbox (no scripts, no same origin, no forms, no navigation of the hub)
// fed by srcdoc, under its own CSP that loads nothing from anywhere (images: data: only), so
// opening a message never tells a tracker it was read. A text message or team notice is plain text.

/** The frame's policy: nothing loads, nothing runs; inline styles only (emails are styled inline). */
export const MESSAGE_FRAME_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; form-action 'none'; base-uri 'none'";

/**
 * The document the frame shows: the policy first (a meta CSP applies to what follows it, and one a
 * body adds later can only narrow it), no referrer, then the message.
 */
export function messageDocument(html: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${MESSAGE_FRAME_CSP}">` +
    '<meta name="referrer" content="no-referrer">' +
    '<style>body{font:15px/1.5 system-ui,sans-serif;margin:0.75rem;overflow-wrap:anywhere}img{max-width:100%}</style>' +
    `</head><body>${html}</body></html>`
  );
}

export function MessageBody({ body, format, title }: { body: string; format: 'html' | 'text'; title: string }) {
  if (format === 'text') return <pre className="message-text">{body}</pre>;
  return <iframe className="sandboxed message-frame" sandbox="" srcDoc={messageDocument(body)} title={title} referrerPolicy="no-referrer" />;
}
