// The frame of the pages outside the signed-in shell: the product name, one heading, the page's
// title in the tab, and <main> for the skip link and screen readers.
import { useEffect, type ReactNode } from 'react';
import './public.css';

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Switchboard`;
  }, [title]);
  return (
    <main id="main" className="auth-page" tabIndex={-1}>
      <p className="auth-brand">Switchboard</p>
      <h1>{title}</h1>
      {children}
    </main>
  );
}
