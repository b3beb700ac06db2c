import { BLANK_TEMPLATE, isTemplateSlug } from '@plink/contracts';

/**
 * "Use this template" for a signed-out visitor: the choice waits in the browser while they register and
 * verify their address (which may happen in another tab, from the e-mail's link), and the editor opens with
 * it once they reach the app signed in.
 */
const KEY = 'plink.pending-template';

export function rememberTemplate(slug: string | null | undefined): void {
  if (!slug || !isTemplateSlug(slug)) return;
  try {
    localStorage.setItem(KEY, slug.toLowerCase());
  } catch {
    // Storage refused (private mode): the visitor starts from a blank page instead.
  }
}

/** The waiting template, removed as it is taken; null when there is none. */
export function takeRememberedTemplate(): string | null {
  try {
    const slug = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
    return slug && isTemplateSlug(slug) ? slug : null;
  } catch {
    return null;
  }
}

/** Where "Use this template" leads: registration first; a signed-in user goes straight on to the editor. */
export const templateSignUpHref = (slug: string) => `/auth?tab=register&template=${encodeURIComponent(slug)}`;

/** The editor's create mode started from a template. */
export const editorTemplateHref = (slug: string) => `/editor/new?template=${encodeURIComponent(slug)}`;

/** "Start blank": the editor's create mode with every field at its default. */
export const BLANK_EDITOR_HREF = editorTemplateHref(BLANK_TEMPLATE);

/** "Create page": the template gallery, optionally filtered to a category. */
export const TEMPLATE_GALLERY_HREF = '/editor/new';
