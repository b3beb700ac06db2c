import { LANDING_PAGE_CSS, allFontFacesCss } from '@plink/page-render';
import { useInsertionEffect } from 'react';

const STYLE_ID = 'plk-landing-page-css';

/**
 * The landing page's stylesheet and the web fonts' faces, added to the document once (its selectors are
 * all `.plk-…`), for the SPA's drawings of a page (the editor's preview, the template gallery's miniatures).
 * A face costs nothing until text uses it: a drawing loads the fonts it shows.
 */
export function useLandingPageStyles() {
  useInsertionEffect(() => {
    if (document.getElementById(STYLE_ID)) return;
    const style = document.createElement('style');
    style.id = STYLE_ID;
    style.textContent = `${allFontFacesCss()}\n${LANDING_PAGE_CSS}`;
    document.head.appendChild(style);
  }, []);
}
