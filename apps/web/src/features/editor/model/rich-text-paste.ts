import {
  RICH_TEXT_IMAGE_SRC,
  RICH_TEXT_LINK_HREF,
  RICH_TEXT_NON_TEXT_TAGS,
  RICH_TEXT_TAGS,
  cleanRichTextUrl,
} from '@plink/contracts';

const KEEP = new Set<string>(RICH_TEXT_TAGS);
const DROP = new Set<string>(RICH_TEXT_NON_TEXT_TAGS);

/**
 * Pasted HTML cleaned to the allowlist the server enforces (what the toolbar makes): other elements are
 * unwrapped (their text stays) or, for script-like containers, dropped; every attribute goes except a
 * link's http/https/mailto/tel href and an image's http(s) or inline-data src. Browser only (DOMParser).
 */
export function cleanPastedHtml(html: string): string {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  clean(doc.body);
  return doc.body.innerHTML;
}

function clean(parent: Element): void {
  for (const node of [...parent.childNodes]) {
    if (node.nodeType === Node.COMMENT_NODE || node.nodeType === Node.PROCESSING_INSTRUCTION_NODE) {
      node.remove();
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const element = node as Element;
    const tag = element.tagName.toLowerCase();
    if (DROP.has(tag)) {
      element.remove();
      continue;
    }
    clean(element);
    if (!KEEP.has(tag)) {
      element.replaceWith(...element.childNodes);
      continue;
    }
    const href = tag === 'a' ? cleanRichTextUrl(element.getAttribute('href')) : '';
    const src = tag === 'img' ? cleanRichTextUrl(element.getAttribute('src')) : '';
    for (const { name } of [...element.attributes]) element.removeAttribute(name);
    if (tag === 'a' && RICH_TEXT_LINK_HREF.test(href)) element.setAttribute('href', href);
    if (tag === 'img') {
      if (RICH_TEXT_IMAGE_SRC.test(src)) element.setAttribute('src', src);
      else element.remove();
    }
  }
}

/** Links the editor accepts (typed, pasted or auto-linked): http, https, mailto and tel only. */
export function isAllowedLink(url: string): boolean {
  return RICH_TEXT_LINK_HREF.test(cleanRichTextUrl(url));
}
