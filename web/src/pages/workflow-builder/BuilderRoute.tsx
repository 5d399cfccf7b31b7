// /workflows/new/blank and /workflows/:id/build. The canvas needs room to drag blocks and draw their
// links, so a phone gets the workflow as it stands, read-only, with a note that says where to edit
// it, rather than a canvas squeezed to nothing; the builder (and @xyflow/react with it) is not even
// loaded there.
import { lazy, Suspense } from 'react';
import { Loading } from '../../components/states';
import { useNarrowScreen } from '../../lib/useNarrowScreen';
import { PhoneView } from './PhoneView';

const WorkflowBuilder = lazy(() => import('./WorkflowBuilder'));

export default function BuilderRoute() {
  const narrow = useNarrowScreen();
  if (narrow) return <PhoneView />;
  return (
    <Suspense fallback={<Loading what="Loading the builder" />}>
      <WorkflowBuilder />
    </Suspense>
  );
}
