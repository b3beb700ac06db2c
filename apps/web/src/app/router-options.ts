/**
 * Shared by the app's browser router and the tests' memory router (RouterProvider props).
 *
 * Navigations are plain (urgent) updates, not transitions: a route change must land before the
 * cache updates that follow it. Logout, for one, goes to / and then sets the user to null; as a
 * transition, the protected screen would first render without a user and redirect to /auth.
 */
export const routerOptions = { useTransitions: false } as const;
