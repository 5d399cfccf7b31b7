// Every screen's heading, and with it the two things a screen change must do for people who do
// not see it happen: the browser tab's title ("Runs · Switchboard") and focus on the new heading
// (a screen reader reads it out). The first screen of a visit keeps focus where the browser puts
// it; every later one takes it. One line per page: <PageHeader title="Runs" />, with the page's
// actions as children (they sit beside the heading, in the shared .page-head style).
import { useEffect, useRef, type ReactNode } from 'react';

const APP = 'Switchboard';
let firstScreen = true;

/** The tab's title for a screen: "Runs · Switchboard". */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP}` : APP;
  }, [title]);
}

export function PageHeader({ title, tabTitle, id, children }: { title: ReactNode; tabTitle?: string; id?: string; children?: ReactNode }) {
  usePageTitle(tabTitle ?? (typeof title === 'string' ? title : ''));
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (firstScreen) firstScreen = false;
    else h1.current?.focus();
  }, []);
  const heading = (
    <h1 id={id} ref={h1} tabIndex={-1}>
      {title}
    </h1>
  );
  return children ? (
    <div className="page-head">
      {heading}
      {children}
    </div>
  ) : (
    heading
  );
}
