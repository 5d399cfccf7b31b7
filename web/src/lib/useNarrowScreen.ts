// Whether the screen is a phone's width (the same 640 px the stylesheets fold at), kept current
// as the window turns or resizes. For the few screens that show something else on a phone rather
// than a squeezed version of the same thing (the workflow builder's canvas).
import { useSyncExternalStore } from 'react';

export const NARROW_SCREEN = '(max-width: 640px)';

const query = (): MediaQueryList => window.matchMedia(NARROW_SCREEN);

function subscribe(onChange: () => void): () => void {
  const list = query();
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
}

export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => query().matches);
}
