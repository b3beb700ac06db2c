import { LeadMessages, SUBMIT_REDIRECT_DELAY_MS } from '@plink/contracts';
import { LandingTexts } from '../components/LandingPage';
import { scriptJson } from './escape';

/** The id of the <template> holding the server-rendered thank-you state. */
export const THANK_YOU_TEMPLATE_ID = 'plk-thanks';

export interface SubmitScriptConfig {
  /** Where the script POSTs the JSON submission. */
  submitUrl: string;
  /** The page's redirect URL (used when the answer does not say). */
  redirectUrl: string | null;
}

/**
 * The visitor page's only JavaScript (no framework; the form works without it). It takes over the form's
 * checks from the browser (whose bubbles look like no part of the page; without JavaScript they still
 * guard the plain post). On submit: checks an e-mail was entered (and the consent box, when shown), and
 * says what is missing in the page's own error style right under that field, disables the inputs and shows
 * 'Submitting...', POSTs {email, consent, website, formToken, referrer, query} as JSON (where the visitor came
 * from and the page address's query, for the lead's source; a 409 whose answer carries a fresh `formToken`, the
 * page's token having expired, is sent again once with it, unseen); on success swaps the card's body for the
 * server-rendered thank-you <template> (texts taken from the answer when it has them) and, with a
 * redirect URL, goes there after 3 s; on failure re-enables the form and shows
 * 'Failed to submit: {message}'. Everything visitor- or server-supplied is set as text, never HTML.
 */
const SOURCE = `(function(){
var d=document,f=d.querySelector('form.plk-form'),t=d.getElementById('${THANK_YOU_TEMPLATE_ID}'),C=__CONFIG__;
if(!f||!t||!('content' in t)||!window.fetch)return;
var b=f.querySelector('button[type=submit]'),label=b?b.textContent:'';
f.noValidate=true;
function busy(on){var a=f.querySelectorAll('input,button');for(var i=0;i<a.length;i++)a[i].disabled=on;
if(b)b.textContent=on?C.submitting:label;if(on)f.setAttribute('aria-busy','true');else f.removeAttribute('aria-busy')}
function error(m,at){var e=f.querySelector('.plk-error');if(!m){if(e)e.parentNode.removeChild(e);mark(null);return}
if(!e){e=d.createElement('p');e.className='plk-error';e.id='plk-error';e.setAttribute('role','alert')}
if(at)at.parentNode.insertBefore(e,at.nextSibling);else f.appendChild(e);e.textContent=m}
function mark(el){var a=f.querySelectorAll('input');for(var i=0;i<a.length;i++){a[i].removeAttribute('aria-invalid');a[i].removeAttribute('aria-describedby')}
if(el){el.setAttribute('aria-invalid','true');el.setAttribute('aria-describedby','plk-error')}}
function safe(u){return typeof u=='string'&&(/^https?:\\/\\/[^\\s\\/\\\\]/i.test(u)||/^\\/(?![\\/\\\\])/.test(u))?u:null}
function thanks(j){
var n=t.content.cloneNode(true),q=function(s){return n.querySelector(s)},h=q('.plk-thanks-title'),p=q('.plk-thanks-text'),
a=q('.plk-thanks .plk-btn'),r=q('.plk-redirect'),go=safe('redirectUrl' in j?j.redirectUrl:C.redirectUrl);
if(typeof j.thankYouHeadline=='string'&&h)h.textContent=j.thankYouHeadline;
if(typeof j.thankYouSubtext=='string'&&p)p.textContent=j.thankYouSubtext;
if('thankYouButton' in j&&a){var k=j.thankYouButton,u=k&&safe(k.url);if(u&&k.text){a.textContent=k.text;a.href=u}else a.parentNode.removeChild(a)}
if(go&&!r){r=d.createElement('p');r.className='plk-redirect';r.textContent=C.redirecting;q('.plk-thanks').appendChild(r)}
if(!go&&r)r.parentNode.removeChild(r);
var body=f.parentNode;while(body.firstChild)body.removeChild(body.firstChild);body.appendChild(n);
var root=d.querySelector('.plk-root');if(root)root.setAttribute('data-plk-state','thank-you');
if(h)h.focus();
if(go)setTimeout(function(){location.href=go},C.delay)}
f.addEventListener('submit',function(ev){
ev.preventDefault();if(f.getAttribute('aria-busy'))return;
var el=f.elements,em=el.namedItem('email'),c=el.namedItem('consent'),w=el.namedItem('website'),k=el.namedItem('formToken'),v=em?em.value.trim():'';
if(!v||(em.validity&&em.validity.typeMismatch)){error(C.invalidEmail,em);mark(em);em.focus();return}
if(c&&!c.checked){error(C.consentRequired,c.closest?c.closest('.plk-consent'):null);mark(c);c.focus();return}
error('');busy(true);
function send(again){return fetch(C.submitUrl,{method:'POST',credentials:'same-origin',headers:{'Content-Type':'application/json',Accept:'application/json'},
body:JSON.stringify({email:v,consent:c?c.checked:false,website:w?w.value:'',formToken:k?k.value:'',referrer:document.referrer,query:location.search})})
.then(function(r){return r.text().then(function(s){var j=null;try{j=JSON.parse(s)}catch(x){}
if(r.status==409&&j&&typeof j.formToken=='string'&&k&&!again){k.value=j.formToken;return send(1)}
if(!r.ok||!j||j.success===false)throw new Error(j&&j.message||(s&&s.charAt(0)!='<'?s.slice(0,300):'')||r.statusText||'Request failed');
return j})})}
send(0).then(thanks,function(x){busy(false);error(C.failed+(x&&x.message||'Request failed'))})})
})();`;

/** The inline script's text (goes inside a <script> element; its data is script-safe JSON). */
export function submitScript(config: SubmitScriptConfig): string {
  const data = {
    submitUrl: config.submitUrl,
    redirectUrl: config.redirectUrl,
    delay: SUBMIT_REDIRECT_DELAY_MS,
    submitting: LandingTexts.submitting,
    redirecting: LandingTexts.redirecting,
    failed: 'Failed to submit: ',
    invalidEmail: LeadMessages.invalidEmail,
    consentRequired: LeadMessages.consentRequired,
  };
  return SOURCE.replace('__CONFIG__', () => scriptJson(data));
}
