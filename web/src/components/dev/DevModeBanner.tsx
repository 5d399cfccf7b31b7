// The banner every signed-in screen shows while the server runs a development stand-in (the local
// AI, the outbox email or SMS transport): in plain words what is not real, with a link to the
// Settings card that says how to make it real. Hidden for the rest of the browser session at most:
// it comes back in a new one, since the stand-ins are still in use.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { providersQuery, type Providers } from '../../data/providers';
import { PROVIDERS_HELP } from './DevLabel';
import './dev.css';

const HIDDEN_KEY = 'switchboard.dev-banner-hidden';

/** What is not real, in one sentence; null when every provider is real. */
export function devModeWords(p: Providers): string | null {
  const messages = [p.email.development && 'emails', p.sms.development && 'texts'].filter(Boolean).join(' and ');
  const ai = p.llm.development ? 'the AI echoes its input' : '';
  const kept = messages ? `${messages} stay in the outbox` : '';
  if (!ai && !kept) return null;
  const what = [ai, kept].filter(Boolean).join(' and ');
  const after = kept ? 'nothing reaches real people' : 'no model is called';
  return `Development mode: ${what} — ${after}.`;
}

function hiddenThisSession(): boolean {
  try {
    return sessionStorage.getItem(HIDDEN_KEY) === '1';
  } catch {
    return false; // storage refused (privacy mode): the banner simply stays
  }
}

export function DevModeBanner() {
  const q = useQuery(providersQuery());
  const [hidden, setHidden] = useState(hiddenThisSession);
  const words = q.data ? devModeWords(q.data) : null;
  if (!words || hidden) return null;
  const hide = () => {
    try {
      sessionStorage.setItem(HIDDEN_KEY, '1');
    } catch {
      // not remembered: hidden on this page only
    }
    setHidden(true);
  };
  return (
    <div className="notice notice-warn dev-banner" role="status">
      <p>
        <strong>{words}</strong> <Link to={PROVIDERS_HELP}>How to make it real</Link>
      </p>
      <button type="button" className="button-secondary dev-banner-hide" onClick={hide} aria-label="Hide the development mode notice for this session">
        Hide
      </button>
    </div>
  );
}
