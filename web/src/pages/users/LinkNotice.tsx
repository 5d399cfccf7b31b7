// A one-time set-password link, shown once (after an invitation or a new link): what it is for,
// the link with a copy button, and Done, after which it is gone from the page.
import type { ReactNode } from 'react';
import { CopyButton } from '../../components/controls';

export function LinkNotice({ url, children, onDone }: { url: string; children: ReactNode; onDone: () => void }) {
  return (
    <div className="notice notice-warn" role="status">
      <p>{children} It works once, for 7 days, and will not be shown again.</p>
      <div className="users-invite-link">
        <code aria-label="Set-password link">{url}</code>
        <CopyButton text={url} label="Copy link" />
        <button type="button" className="button-secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
