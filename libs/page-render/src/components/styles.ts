/**
 * The landing page's stylesheet. The server document inlines it once in <head>; the editor preview
 * injects it with a <style> tag. Every selector starts with `.plk-` so it cannot restyle the SPA.
 * Fixed sizes (card at most 420 px wide, main image 260 px high, corners, shadow) are also set inline by the
 * component, so they hold even before this sheet is applied.
 */
export const LANDING_PAGE_CSS = [
  '.plk-root{position:relative;box-sizing:border-box;min-height:100vh;min-height:100dvh;margin:0;padding:40px 16px 24px;display:flex;flex-direction:column;align-items:center;font-family:system-ui,-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#111827;line-height:1.5;-webkit-font-smoothing:antialiased}',
  '.plk-root *,.plk-root *::before,.plk-root *::after{box-sizing:border-box}',
  '.plk-root.plk-preview{min-height:100%}',
  '.plk-bg{position:fixed;inset:0;z-index:0;background-position:center;background-size:cover;background-repeat:no-repeat}',
  '.plk-preview .plk-bg{position:absolute}',
  '.plk-card{position:relative;z-index:1;width:100%;max-width:420px;background:#fff;overflow:hidden}',
  '.plk-img{display:block;width:100%;height:260px;object-fit:cover}',
  '.plk-body{padding:28px 24px}',
  '.plk-title{margin:0;font-size:26px;line-height:1.25;overflow-wrap:anywhere}',
  '.plk-author{margin:6px 0 0;font-size:14px;color:#6b7280}',
  '.plk-subtext{margin-top:14px;font-size:15px;color:#374151;overflow-wrap:anywhere}',
  '.plk-subtext>:first-child{margin-top:0}.plk-subtext>:last-child{margin-bottom:0}',
  '.plk-subtext p{margin:0 0 10px}.plk-subtext h1{font-size:22px;margin:0 0 10px}.plk-subtext h2{font-size:18px;margin:0 0 8px}',
  '.plk-subtext ul,.plk-subtext ol{margin:0 0 10px;padding-left:22px}.plk-center .plk-subtext li{list-style-position:inside}',
  // Centred, the marker sits inside the item: the item's first paragraph (the editor wraps every item's text in
  // one) runs on the marker's line instead of dropping below it, and the list loses its left indent.
  '.plk-center .plk-subtext ul,.plk-center .plk-subtext ol{padding-left:0}.plk-center .plk-subtext li>p:first-child{display:inline}',
  '.plk-subtext img{max-width:100%;height:auto}.plk-subtext a{color:inherit}',
  '.plk-form{margin-top:20px;display:flex;flex-direction:column;gap:12px}',
  '.plk-input{width:100%;padding:11px 12px;border:1px solid #d1d5db;border-radius:8px;font:inherit;font-size:15px;color:#111827;background:#fff}',
  '.plk-input:focus-visible{outline:2px solid #2563eb;outline-offset:1px}',
  '.plk-consent{display:flex;gap:8px;align-items:flex-start;font-size:13px;color:#4b5563;text-align:left}',
  '.plk-center .plk-consent{justify-content:center}.plk-consent input{margin:3px 0 0}.plk-consent a{color:inherit}',
  '.plk-btn{display:block;width:100%;padding:12px 16px;border:0;border-radius:8px;font:inherit;font-size:15px;font-weight:600;line-height:1.3;text-align:center;text-decoration:none;cursor:pointer}',
  '.plk-btn:hover{filter:brightness(.92)}.plk-btn:disabled{opacity:.7;cursor:default;filter:none}',
  '.plk-sharp .plk-input,.plk-sharp .plk-btn{border-radius:0}',
  '.plk-error{margin:0;font-size:14px;color:#c92a2a;text-align:left}.plk-center .plk-error{text-align:center}',
  '.plk-input+.plk-error,.plk-consent+.plk-error{margin-top:-6px;font-size:13px}',
  '.plk-input[aria-invalid=true]{border-color:#c92a2a}',
  '.plk-check{display:inline-flex;align-items:center;justify-content:center;width:48px;height:48px;margin-bottom:12px;border-radius:50%;font-size:24px;line-height:1}',
  '.plk-thanks-title{margin:0;font-size:24px;line-height:1.25;overflow-wrap:anywhere}',
  '.plk-thanks-text{margin:8px 0 0;color:#374151;overflow-wrap:anywhere}',
  '.plk-thanks .plk-btn{margin-top:20px}.plk-redirect{margin:16px 0 0;font-size:13px;color:#6b7280}',
  '.plk-example-note{margin:16px 0 0;padding:8px 12px;border-radius:6px;background:#f3f4f6;font-size:13px;color:#374151}',
  '.plk-footer{position:relative;z-index:1;margin-top:24px;display:flex;flex-direction:column;align-items:center;gap:10px;font-size:12px}',
  '.plk-links{display:flex;flex-wrap:wrap;justify-content:center;gap:4px 14px;padding:6px 14px;border-radius:999px;background:rgba(255,255,255,.85);color:#4b5563}',
  '.plk-links a,.plk-badge{color:inherit;text-decoration:none}.plk-links a:hover{text-decoration:underline}',
  '.plk-badge{padding:6px 12px;border-radius:999px;background:#111827;color:#fff;font-weight:600}',
].join('\n');
