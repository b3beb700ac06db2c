import { Navigate, Outlet } from 'react-router-dom';
import { PageLoader } from '../../../components/PageLoader';
import { useCurrentUser } from '../hooks/useCurrentUser';

/** Layout route for login routes: a spinner while the user is determined, /auth for anonymous visitors. */
export function RequireAuth() {
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <PageLoader />;
  if (!user) return <Navigate to="/auth" replace />;
  return <Outlet />;
}
