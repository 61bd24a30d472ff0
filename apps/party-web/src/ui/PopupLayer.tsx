import { lazy, Suspense } from 'react';
import { useParty, useServices } from '../app/context.tsx';
import { loadWithTimeout } from '../rules/loadTimeout.ts';
import { isHostOrAdmin } from '../rules/roles.ts';
import { roleOf } from '../state/store.ts';
import { LoadErrorBoundary } from './LoadErrorBoundary.tsx';
import { LoadFailed } from './LoadFailed.tsx';

// Popups are rare: their modal loads with the first one.
const PopupModal = lazy(() => loadWithTimeout(() => import('./PopupModal.tsx')));

/**
 * Popups from hosts (spec 3), oldest first. Fans see them as a modal; hosts and admins see them
 * inside their panel instead (party/host/SentPopupNotice.tsx), so a popup never covers the
 * controls that sent it.
 */
export function PopupLayer() {
  const services = useServices();
  const popup = useParty((s) => s.popups[0] ?? null);
  const isHost = useParty((s) => isHostOrAdmin(roleOf(s)));
  if (!popup || isHost) return null;
  return (
    <LoadErrorBoundary fallback={<LoadFailed />}>
      <Suspense fallback={null}>
        <PopupModal popup={popup} onClose={() => services.store.getState().closePopup(popup.id)} />
      </Suspense>
    </LoadErrorBoundary>
  );
}
