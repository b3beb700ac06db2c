import { trigger } from './trigger';

/** The host page as the trigger measures it: its full height, the window's height and how far it is scrolled. */
function hostPage(pageHeight: number, windowHeight = 800): { scrollTo: (y: number) => void; resize: (height: number) => void } {
  Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, get: () => pageHeight });
  Object.defineProperty(window, 'innerHeight', { configurable: true, writable: true, value: windowHeight });
  Object.defineProperty(window, 'scrollY', { configurable: true, writable: true, value: 0 });
  return {
    scrollTo: (y) => {
      window.scrollY = y;
      window.dispatchEvent(new Event('scroll'));
    },
    resize: (height) => {
      window.innerHeight = height;
      window.dispatchEvent(new Event('resize'));
    },
  };
}

describe('embed.js popup trigger', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('scroll:50 on a long page opens once the visitor has scrolled half of it, and only once', () => {
    const page = hostPage(3000);
    const open = jest.fn();
    trigger('scroll:50', open);
    page.scrollTo(500);
    jest.advanceTimersByTime(60_000);
    expect(open).not.toHaveBeenCalled();
    page.scrollTo(1100);
    page.scrollTo(2200);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('scroll:50 on a page that fits in the window does not open on load, but after 10 seconds', () => {
    hostPage(600);
    const open = jest.fn();
    trigger('scroll:50', open);
    expect(open).not.toHaveBeenCalled();
    jest.advanceTimersByTime(9_900);
    expect(open).not.toHaveBeenCalled();
    jest.advanceTimersByTime(100);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('a short page that has grown scrollable by then keeps waiting for the scroll', () => {
    const open = jest.fn();
    hostPage(600);
    trigger('scroll:50', open);
    // Late content (images, a comment section) makes the page long before the fallback's time.
    const page = hostPage(3000);
    jest.advanceTimersByTime(10_000);
    expect(open).not.toHaveBeenCalled();
    page.scrollTo(1200);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('a page that a taller window leaves without room to scroll opens after the delay too', () => {
    const page = hostPage(1000, 800);
    const open = jest.fn();
    trigger('scroll:90', open);
    jest.advanceTimersByTime(10_000);
    expect(open).not.toHaveBeenCalled();
    page.resize(1000);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('a page already scrolled past the threshold (a reload keeps its place) opens at once', () => {
    const page = hostPage(3000);
    page.scrollTo(2000);
    const open = jest.fn();
    trigger('scroll:50', open);
    expect(open).toHaveBeenCalledTimes(1);
  });

  it('exit intent on a phone on a short page falls back the same way (scroll, then the delay)', () => {
    hostPage(500);
    const matchMedia = jest.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList);
    const open = jest.fn();
    trigger('exit', open);
    expect(matchMedia).toHaveBeenCalledWith('(pointer: coarse)');
    expect(open).not.toHaveBeenCalled();
    jest.advanceTimersByTime(10_000);
    expect(open).toHaveBeenCalledTimes(1);
    matchMedia.mockRestore();
  });

  it('delay:3 opens after three seconds, whatever the page', () => {
    hostPage(600);
    const open = jest.fn();
    trigger('delay:3', open);
    jest.advanceTimersByTime(2_999);
    expect(open).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(open).toHaveBeenCalledTimes(1);
  });
});
