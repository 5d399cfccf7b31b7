// The frame of the pages outside the signed-in shell: the product name, one heading, the page's
// title in the tab, and <main> for the skip link and screen readers.
// (PageHeader sets the tab's title and takes focus when the user arrives from another page.)
import type { ReactNode } from 'react';
import { PageHeader } from '../../components/PageHeader';
import './public.css';

export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main id="main" className="auth-page" tabIndex={-1}>
      <p className="auth-brand">Switchboard</p>
      <PageHeader title={title} />
      {children}
    </main>
  );
}
