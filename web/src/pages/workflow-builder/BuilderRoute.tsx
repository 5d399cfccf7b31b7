// /workflows/new/blank and /workflows/:id/build. The canvas needs room to drag blocks and draw their
// links, so a phone gets the workflow as it stands, read-only, with a note that says where to edit
// it, rather than a canvas squeezed to nothing; the builder (and @xyflow/react with it) is not even
// loaded there.
import { lazy, Suspense, useState } from 'react';
import { Loading } from '../../components/states';
import { useNarrowScreen } from '../../lib/useNarrowScreen';
import { PhoneView } from './PhoneView';

const WorkflowBuilder = lazy(() => import('./WorkflowBuilder'));

export default function BuilderRoute() {
  const narrow = useNarrowScreen();
  // A phone turned sideways (or a window widened) gets the builder at once. The other way never
  // switches back: once the builder is open, a window narrowed for a moment (snapped to half a
  // laptop's screen, or resized by a full-page screenshot) must not unmount it, which would drop
  // the open panel, the selection and a save conflict being answered.
  const [builderShown, setBuilderShown] = useState(!narrow);
  if (!narrow && !builderShown) setBuilderShown(true);
  if (narrow && !builderShown) return <PhoneView />;
  return (
    <Suspense fallback={<Loading what="Loading the builder" />}>
      <WorkflowBuilder />
    </Suspense>
  );
}
