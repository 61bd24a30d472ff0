import { lazy, Suspense } from 'react';
import { loadWithTimeout } from '../rules/loadTimeout.ts';
import { LoadErrorBoundary } from './LoadErrorBoundary.tsx';
import { LoadFailed } from './LoadFailed.tsx';
import type { ThemedModalProps } from './ThemedModal.tsx';

// The modal and the shared kit behind it load when a modal first opens: a fan's first paint does not carry them.
const ThemedModal = lazy(() => loadWithTimeout(() => import('./ThemedModal.tsx')));

/** `ThemedModal`, loaded on first use (screens outside lazily loaded chunks use this one). */
export function LazyModal(props: ThemedModalProps) {
  return (
    <LoadErrorBoundary fallback={<LoadFailed />}>
      <Suspense fallback={null}>
        <ThemedModal {...props} />
      </Suspense>
    </LoadErrorBoundary>
  );
}
