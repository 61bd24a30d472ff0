import { useEffect } from 'react';
import { Navigate, useParams } from '../app/router.tsx';
import { useServices } from '../app/context.tsx';

/** `/grant/{grantToken}` (spec 2): stores the token under the party grant key, then goes to `/`. */
export function GrantLogin() {
  const { grantToken } = useParams();
  const services = useServices();
  // Stored before the redirect renders, so the next login carries the grant.
  if (grantToken) services.storage.storeGrant(grantToken);
  useEffect(() => undefined, []);
  return <Navigate to="/" replace />;
}
