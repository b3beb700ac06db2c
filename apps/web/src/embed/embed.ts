/**
 * embed.js: a Plink page's form on any site. `<script async src="{PUBLIC_ORIGIN}/embed.js" data-plink-page="{slug}">`
 * draws it where the tag stands; `data-mode="popup"` or `"slide-in"` with `data-trigger="delay:10"`, `"scroll:50"`
 * or `"exit"` (exit intent on desktop; phones fall back to scroll) opens it over the page (see ./trigger.ts: a
 * scroll trigger on a page too short to scroll waits 10 s instead).
 *
 * Built on its own (scripts/build-embed.mjs), no dependencies, at most 5 KB gzipped. Everything is drawn inside a
 * shadow root with its own styles (`:host { all: initial }`), so the host's CSS cannot restyle it and it restyles
 * nothing of the host; page data is set as text only. What it reads and submits comes from the embed's own calls
 * (CORS, no credentials). A popup or slide-in closed or answered stays away for 7 days (the host's localStorage,
 * no cookies).
 */
import type { EmbedPageDto, SubmitLeadResponse } from '@plink/contracts';
import { trigger } from './trigger';

type Attrs = Record<string, string | boolean | number | EventListener | undefined>;
type Answer = Partial<SubmitLeadResponse> & { message?: string; formToken?: string };

const QUIET_MS = 7 * 864e5;
const REDIRECT_DELAY_MS = 3000;

const script = document.currentScript as HTMLScriptElement | null;
if (script) start(script);

function start(tag: HTMLScriptElement): void {
  const slug = tag.dataset.plinkPage ?? '';
  const mode = tag.dataset.mode === 'popup' || tag.dataset.mode === 'slide-in' ? tag.dataset.mode : 'inline';
  const origin = new URL(tag.src).origin;
  const key = `plink-embed:${slug}`;
  const store = (value?: string): string | null => {
    try {
      if (value) localStorage.setItem(key, value);
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const remember = () => store(String(Date.now()));
  if (mode !== 'inline' && Date.now() - Number(store() ?? 0) < QUIET_MS) return;

  const host = document.createElement('div');
  host.setAttribute('data-plink-embed', slug);
  if (mode === 'inline') tag.parentNode?.insertBefore(host, tag);
  else document.body.appendChild(host);
  const root = host.attachShadow({ mode: 'open' });

  fetch(`${origin}/api/embed/${encodeURIComponent(slug)}`, { credentials: 'omit' })
    .then((r) => r.json().then((j: EmbedPageDto & { message?: string }) => (r.ok ? j : Promise.reject(new Error(j.message)))))
    .then(draw, (e: Error) => console.warn(`Plink embed "${slug}": ${e.message || 'not available'}`));

  function draw(page: EmbedPageDto): void {
    const t = page.texts;
    if (page.fontCss && !document.querySelector('style[data-plink-fonts]')) {
      // Font faces must be declared in the document (a shadow root's @font-face is ignored); their family names
      // are the embed's own ("plk …"), so they restyle nothing of the host.
      document.head.appendChild(h('style', { 'data-plink-fonts': '' }, page.fontCss));
    }
    const vars = `--b:${page.buttonColor};--bt:${page.buttonTextColor};--bg:${page.backgroundColor};--tf:${page.titleFont};--tw:${page.titleWeight};--f:${page.bodyFont}`;
    root.appendChild(h('style', {}, CSS));

    const email = h('input', { class: 'in', type: 'email', name: 'email', maxlength: 254, autocomplete: 'email', placeholder: t.emailPlaceholder, 'aria-label': t.emailLabel }) as HTMLInputElement;
    const agree = page.consent && (h('input', { type: 'checkbox', name: 'consent' }) as HTMLInputElement);
    const trap = h('input', { type: 'text', name: 'website', tabindex: -1, autocomplete: 'off' }) as HTMLInputElement;
    const button = h('button', { class: 'btn', type: 'submit' }, page.buttonText) as HTMLButtonElement;
    const error = h('p', { class: 'err', role: 'alert', id: 'e' });
    const consentLine =
      page.consent && agree && h('label', { class: 'cs' }, agree, h('span', {}, page.consent.before, h('a', { href: page.consent.url, target: '_blank', rel: 'noopener' }, page.consent.linkText)));
    const form = h('form', { novalidate: true }, email, consentLine || '', h('div', { class: 'hp', 'aria-hidden': 'true' }, trap), button, error) as HTMLFormElement;
    const body = h('div', { class: 'body' }, page.title ? h('h2', { class: 'tt' }, page.title) : '', page.subtext ? h('p', { class: 'st' }, page.subtext) : '', form);
    const card = h('div', { class: `card${page.sharp ? ' sharp' : ''}${page.shadow ? ' shadow' : ''}${page.center ? ' center' : ''}` }, body);
    const badge = page.badge ? h('a', { class: 'badge', href: page.badge, target: '_blank', rel: 'noopener' }, t.madeWith) : '';
    const wrap = h('div', { class: `w ${mode}`, style: vars }, card, badge);
    let token = page.formToken;

    const fail = (message: string, field?: HTMLElement) => {
      error.textContent = message;
      for (const el of [email, agree]) el?.removeAttribute('aria-invalid');
      if (field) {
        field.setAttribute('aria-invalid', 'true');
        field.setAttribute('aria-describedby', 'e');
        field.focus();
      }
    };
    const busy = (on: boolean) => {
      for (const el of [email, agree, button]) if (el) el.disabled = on;
      button.textContent = on ? t.submitting : page.buttonText;
    };
    const send = (again?: boolean): Promise<Answer> =>
      fetch(page.submitUrl, {
        method: 'POST',
        credentials: 'omit',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email: email.value.trim(), consent: agree ? agree.checked : false, website: trap.value, formToken: token }),
      }).then((r) =>
        r.json().then((j: Answer) => {
          // A token older than 2 h: the server answers a fresh one; sent again once, unseen.
          if (r.status === 409 && j.formToken && !again) {
            token = j.formToken;
            return send(true);
          }
          if (!r.ok) throw new Error(j.message || r.statusText);
          return j;
        }),
      );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      if (!email.value.trim() || email.validity.typeMismatch) return fail(t.invalidEmail, email);
      if (agree && !agree.checked) return fail(t.consentRequired, agree);
      fail('');
      busy(true);
      send().then(thanks, (e: Error) => {
        busy(false);
        fail(t.failed + e.message);
      });
    });

    function thanks(answer: Answer): void {
      remember();
      const link = answer.thankYouButton;
      const go = safe(answer.redirectUrl);
      const title = h('h2', { class: 'tt', tabindex: -1 }, answer.thankYouHeadline ?? '');
      body.replaceChildren(
        h('div', { role: 'status' }, h('div', { class: 'ck', 'aria-hidden': 'true' }, '✓'), title, h('p', { class: 'st' }, answer.thankYouSubtext ?? '')),
        link && safe(link.url) ? h('a', { class: 'btn', href: link.url, target: '_blank', rel: 'noopener' }, link.text) : '',
        go ? h('p', { class: 'st' }, t.redirecting) : '',
      );
      title.focus();
      if (go) setTimeout(() => (location.href = go), REDIRECT_DELAY_MS);
    }

    const counted = () => {
      fetch(`${page.viewUrl}?host=${encodeURIComponent(location.hostname)}`, { method: 'POST', credentials: 'omit', keepalive: true }).catch(() => undefined);
    };
    if (mode === 'inline') {
      root.appendChild(wrap);
      counted();
      return;
    }

    // A popup or slide-in: a dialog over the page, opened by its trigger.
    const close = h('button', { class: 'x', type: 'button', 'aria-label': t.close }, '×');
    card.prepend(close);
    const dialog = h('div', { class: 'dlg', role: 'dialog', 'aria-modal': 'true', 'aria-label': page.title || t.dialogLabel }, wrap);
    const layer = h('div', { class: `layer ${mode}` }, dialog);
    let opened = false;
    let before: Element | null = null;
    const focusables = () => [...dialog.querySelectorAll<HTMLElement>('a[href],button,input:not([tabindex="-1"])')].filter((el) => !(el as HTMLButtonElement).disabled);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') return hide();
      if (e.key !== 'Tab') return;
      const all = focusables();
      const first = all[0];
      const last = all[all.length - 1];
      const at = root.activeElement;
      if (e.shiftKey ? at === first || !at : at === last || !at) {
        e.preventDefault();
        (e.shiftKey ? last : first).focus();
      }
    };
    const onOutside = (e: MouseEvent) => {
      const path = e.composedPath();
      if (!path.includes(dialog)) hide();
    };
    function hide(): void {
      if (!opened) return;
      opened = false;
      remember();
      layer.remove();
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('mousedown', onOutside, true);
      if (before instanceof HTMLElement) before.focus();
    }
    close.addEventListener('click', hide);
    const open = () => {
      if (opened || layer.isConnected || Date.now() - Number(store() ?? 0) < QUIET_MS) return;
      opened = true;
      before = document.activeElement;
      root.appendChild(layer);
      document.addEventListener('keydown', onKey, true);
      document.addEventListener('mousedown', onOutside, true);
      email.focus();
      counted();
    };
    trigger(tag.dataset.trigger ?? 'delay:10', open);
  }
}

/** An http(s) address, else null (what a thank-you link or redirect may point at). */
function safe(url: string | null | undefined): string | null {
  return typeof url === 'string' && /^https?:\/\/[^\s/\\]/i.test(url) ? url : null;
}

/** An element with attributes (a listener for `on…`) and children, text set as text, never as HTML. */
function h(tag: string, attrs: Attrs, ...children: (Node | string)[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  el.append(...children);
  return el;
}

const CSS = `:host{all:initial!important;display:block!important}
.w{box-sizing:border-box;font:15px/1.5 var(--f);color:#111827;background:var(--bg);padding:16px;display:flex;flex-direction:column;align-items:center;gap:10px;text-align:left}
.w *{box-sizing:border-box;font-family:inherit}
.card{position:relative;width:100%;max-width:420px;background:#fff;border-radius:12px;overflow:hidden}
.shadow{box-shadow:0 10px 30px rgba(0,0,0,.12),0 2px 6px rgba(0,0,0,.08)}.center{text-align:center}
.body{padding:24px}
.tt{margin:0;font:var(--tw) 22px/1.25 var(--tf);overflow-wrap:anywhere}
.st{margin:10px 0 0;color:#374151;overflow-wrap:anywhere}
form{display:flex;flex-direction:column;gap:12px;margin:18px 0 0}
.in{display:block;width:100%;padding:11px 12px;border:1px solid #d1d5db;border-radius:8px;font-size:15px;color:#111827;background:#fff;margin:0}
.in:focus-visible,.btn:focus-visible,.x:focus-visible{outline:2px solid #2563eb;outline-offset:1px}
.in[aria-invalid=true]{border-color:#c92a2a}
.cs{display:flex;gap:8px;align-items:flex-start;font-size:13px;color:#4b5563;text-align:left}.cs input{margin:3px 0 0}.cs a{color:inherit}
.btn{display:block;width:100%;padding:12px 16px;border:0;border-radius:8px;background:var(--b);color:var(--bt);font-size:15px;font-weight:600;line-height:1.3;text-align:center;text-decoration:none;cursor:pointer;margin:0}
.btn:disabled{opacity:.7}.sharp,.sharp .in,.sharp .btn{border-radius:0}
.err{margin:0;font-size:14px;color:#c92a2a}.err:empty{display:none}
.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.ck{display:inline-flex;align-items:center;justify-content:center;width:44px;height:44px;margin-bottom:10px;border-radius:50%;background:var(--b);color:var(--bt);font-size:22px}
.badge{padding:5px 12px;border-radius:999px;background:#111827;color:#fff;font-size:12px;font-weight:600;text-decoration:none}
.x{position:absolute;top:6px;right:6px;width:32px;height:32px;border:0;border-radius:50%;background:#f3f4f6;color:#111827;font-size:20px;line-height:1;cursor:pointer}
.layer{position:fixed;z-index:2147483647;inset:0;display:flex;align-items:center;justify-content:center;padding:16px;background:rgba(17,24,39,.55)}
.layer.slide-in{inset:auto 16px 16px auto;padding:0;background:none;max-width:calc(100vw - 32px)}
.dlg{width:440px;max-width:100%;max-height:calc(100vh - 32px);overflow:auto}
.dlg .w{border-radius:14px}
.slide-in .w{box-shadow:0 10px 30px rgba(0,0,0,.25)}`;
