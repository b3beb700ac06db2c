/**
 * When a popup or slide-in of embed.js opens: `delay:{seconds}`, `scroll:{percent}` or `exit` (exit intent;
 * on a coarse pointer, where there is no pointer to leave the window, scroll 50 %).
 *
 * A scroll trigger on a page too short to scroll (the whole page fits in the window, so no scroll can reach
 * the threshold) would otherwise fire at once, on load, before the visitor has read anything. There it waits
 * the default delay (10 s) instead, as a `delay:10` trigger would; a page that has grown scrollable meanwhile
 * (images, late content) keeps waiting for the scroll.
 */
const DEFAULT_DELAY_S = 10;

export function trigger(spec: string, open: () => void): void {
  let [kind, value] = spec.split(':');
  if (kind === 'exit' && matchMedia('(pointer: coarse)').matches) [kind, value] = ['scroll', '50'];
  if (kind === 'exit') {
    const leave = (e: MouseEvent) => {
      if (e.relatedTarget || e.clientY > 0) return;
      document.removeEventListener('mouseout', leave);
      open();
    };
    document.addEventListener('mouseout', leave);
  } else if (kind === 'scroll') {
    const share = Number(value) / 100 || 0.5;
    // How far the page can scroll, in pixels (under one: not at all).
    const room = () => document.documentElement.scrollHeight - innerHeight;
    let late = false;
    let done = false;
    const check = () => {
      const r = room();
      if (done || (r >= 1 ? scrollY / r < share : !late)) return;
      done = true;
      removeEventListener('scroll', check);
      removeEventListener('resize', check);
      open();
    };
    addEventListener('scroll', check, { passive: true });
    // A window made taller can leave nothing to scroll: the delay's fallback applies then too.
    addEventListener('resize', check);
    check();
    setTimeout(() => {
      late = true;
      check();
    }, DEFAULT_DELAY_S * 1000);
  } else {
    setTimeout(open, (Number(value) || DEFAULT_DELAY_S) * 1000);
  }
}
