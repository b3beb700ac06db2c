/** The networks the "Your page is live" dialog shares to, in the order it shows them. */
export type ShareNetwork = 'x' | 'linkedin' | 'facebook' | 'email';

export interface ShareLink {
  network: ShareNetwork;
  /** The button's text. */
  label: string;
  href: string;
}

/**
 * Each network's own share address for `url`, with `text` (the page's sharing title) where the network
 * takes one: LinkedIn and Facebook read the title, description and image from the page's og: tags.
 */
export function shareLinks(url: string, text: string): ShareLink[] {
  const q = encodeURIComponent;
  return [
    { network: 'x', label: 'X', href: `https://twitter.com/intent/tweet?url=${q(url)}&text=${q(text)}` },
    { network: 'linkedin', label: 'LinkedIn', href: `https://www.linkedin.com/sharing/share-offsite/?url=${q(url)}` },
    { network: 'facebook', label: 'Facebook', href: `https://www.facebook.com/sharer/sharer.php?u=${q(url)}` },
    { network: 'email', label: 'E-mail', href: `mailto:?subject=${q(text)}&body=${q(`${text}\n\n${url}`)}` },
  ];
}
