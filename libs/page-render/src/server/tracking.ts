import type { PublicPageDto } from '@plink/contracts';
import { escapeHtml, scriptJson } from './escape';

/**
 * The Pro owner's tracking (a Pro feature): Google Analytics (gtag.js) and the
 * Meta pixel, the vendors' standard snippets with the page's ids. The ids were validated on save
 * (`G-…`, digits) and reach the public page only for Pro owners; they are still escaped here.
 */
export function trackingTags(page: Pick<PublicPageDto, 'googleAnalyticsId' | 'facebookPixelId'>): string[] {
  const tags: string[] = [];
  const ga = page.googleAnalyticsId?.trim();
  if (ga && /^[A-Z0-9-]+$/.test(ga)) {
    tags.push(
      `<script async src="https://www.googletagmanager.com/gtag/js?id=${escapeHtml(encodeURIComponent(ga))}"></script>`,
      `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments);}gtag('js',new Date());gtag('config',${scriptJson(ga)});</script>`,
    );
  }
  const pixel = page.facebookPixelId?.trim();
  if (pixel && /^\d+$/.test(pixel)) {
    tags.push(
      '<script>!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};' +
        "if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';n.queue=[];t=b.createElement(e);t.async=!0;t.src=v;" +
        "s=b.getElementsByTagName(e)[0];s.parentNode.insertBefore(t,s)}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');" +
        `fbq('init',${scriptJson(pixel)});fbq('track','PageView');</script>`,
      `<noscript><img height="1" width="1" style="display:none" alt="" src="https://www.facebook.com/tr?id=${pixel}&amp;ev=PageView&amp;noscript=1"></noscript>`,
    );
  }
  return tags;
}
