import { authAliasTarget } from '@plink/contracts';
import { Navigate, useLocation } from 'react-router-dom';

/**
 * `/login`, `/register` and `/signup` inside the app: the sign-in screen's tab, the query kept (the gateway
 * answers a typed address with the same redirect).
 */
export function AuthAlias() {
  const { pathname, search } = useLocation();
  return <Navigate to={authAliasTarget(pathname, search) ?? '/auth'} replace />;
}
