// A message's body as it was sent. An email's HTML is someone's content (a template, AI text, a
// contact's own fields) and may carry scripts, tracking pixels or forms: it is shown only in an
// iframe with an empty sandbox (no scripts, no same origin, no forms, no navigation of the hub),
// loaded from GET /hub/api/messages/{id}/body, which the server answers under a CSP that loads
// nothing from anywhere and runs nothing. A header rather than a meta CSP in a srcdoc: it binds
// before the first byte is parsed, and its `sandbox` holds even when the URL is opened on its own
// (the frame would otherwise inherit the hub's own policy, which allows https: images). A text message or team notice is plain text from the JSON.

export const messageBodyUrl = (id: string) => `/hub/api/messages/${encodeURIComponent(id)}/body`;

export function MessageBody({ id, body, format, title }: { id: string; body: string; format: 'html' | 'text'; title: string }) {
  if (format === 'text') return <pre className="message-text">{body}</pre>;
  return <iframe className="sandboxed message-frame" sandbox="" src={messageBodyUrl(id)} title={title} referrerPolicy="no-referrer" />;
}
