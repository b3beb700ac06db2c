import type { MouseEvent } from 'react';
import classes from './SkipLink.module.css';

/** The id of every screen's main region, where the skip link leads. */
const MAIN_ID = 'main';

/** Props for the screens' `<main>`: the skip link's target, focusable by script only. */
export const mainRegionProps = { id: MAIN_ID, tabIndex: -1, className: classes.main } as const;

/**
 * "Skip to main content": the first Tab stop of every screen, past the navbar to the screen itself. Focus
 * moves without a #main in the address: that would be a navigation for the router (in the editor, a
 * "Leave without saving?").
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  };
  return (
    <a href={`#${MAIN_ID}`} className={classes.skipLink} onClick={skip}>
      Skip to main content
    </a>
  );
}
