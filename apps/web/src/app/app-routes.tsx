import type { RouteObject } from 'react-router-dom';
import { AppRoutes } from './AppRoutes';

// A data router (one splat route around the app's <Routes>): it is what lets the editor ask before
// leaving with unsaved changes (useBlocker). The browser and the build-time prerender share it.
export const appRoutes: RouteObject[] = [{ path: '*', element: <AppRoutes /> }];
