import { useEffect, useRef } from 'react';
import { useBlocker } from 'react-router-dom';

/**
 * Asks before leaving the editor with unsaved changes: in-app navigation is held by a router blocker
 * (the caller shows the question and proceeds or resets it), and closing or reloading the tab gets the
 * browser's own prompt. `allowNextNavigation()` lets a save's own navigation through (create → dashboard).
 */
export function useUnsavedChangesPrompt(hasChanges: boolean) {
  const changes = useRef(hasChanges);
  changes.current = hasChanges;
  const allowed = useRef(false);

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      // The search too: create mode's `?template=` names the form's start (another one, or the gallery, drops it).
      changes.current && !allowed.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!hasChanges) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (allowed.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [hasChanges]);

  return {
    blocker,
    allowNextNavigation: (allow = true) => {
      allowed.current = allow;
    },
  };
}
