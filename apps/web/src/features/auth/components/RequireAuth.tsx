import { Navigate, Outlet } from 'react-router-dom';
import { PageLoader } from '../../../components/PageLoader';
import { useCurrentUser } from '../hooks/useCurrentUser';

/**
 * Layout route for the signed-in screens: the brand loader while the user is determined, /auth for
 * anonymous visitors, /verify-prompt for a user who has not verified the e-mail address yet (they cannot
 * create a page, so no login screen is of use to them before that).
 */
export function RequireAuth() {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <PageLoader />;
  if (!user) return <Navigate to="/auth" replace />;
  if (!user.isVerified) return <Navigate to="/verify-prompt" replace />;
  return <Outlet />;
}
