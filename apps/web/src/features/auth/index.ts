// AuthPage is not re-exported: the router loads it lazily (with the shared zod schemas) from
// './components/AuthPage', so screens that only need the current user stay light.
export { AuthAlias } from './components/AuthAlias';
export { AuthField } from './components/AuthField';
export { RequireAuth } from './components/RequireAuth';
export { currentUserQuery, useCurrentUser, useSignedInUser } from './hooks/useCurrentUser';
export { useLogout } from './hooks/useLogout';
