import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';
import { cleanNotifications } from '@mantine/notifications';
import { act, configure } from '@testing-library/react';
import { takeUnexpectedRequests } from './fetch-mock';

// Screens load their code on demand (route-level splitting), so a test's first findBy on a screen waits for a
// dynamic import; on a busy machine that takes longer than the library's 1 s default.
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks what these need (docs/toolchain-notes.md): react-router 7 TextEncoder, Mantine matchMedia/ResizeObserver.
Object.assign(globalThis, { TextEncoder, TextDecoder });

Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList,
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
Object.assign(globalThis, { ResizeObserver: ResizeObserverStub });

// jsdom lays nothing out, so a chart's responsive container measured 0 × 0 and recharts warned on every render
// (a screen of warnings per stats test). The container gets the stats card's size; other elements keep jsdom's.
const jsdomBoundingRect = Element.prototype.getBoundingClientRect;
Element.prototype.getBoundingClientRect = function (this: Element): DOMRect {
  if (!this.classList.contains('recharts-responsive-container')) return jsdomBoundingRect.call(this);
  const box = { x: 0, y: 0, top: 0, left: 0, width: 800, height: 240, right: 800, bottom: 240 };
  return { ...box, toJSON: () => box };
};

// The data router builds a Request per navigation (only url, method and signal are read without
// loaders); jsdom has no Fetch API classes.
class RequestStub {
  readonly url: string;
  readonly method: string;
  readonly signal: AbortSignal;
  constructor(input: string | URL, init: { method?: string; signal?: AbortSignal } = {}) {
    this.url = String(input);
    this.method = (init.method ?? 'GET').toUpperCase();
    this.signal = init.signal ?? new AbortController().signal;
  }
}
if (typeof globalThis.Request === 'undefined') Object.assign(globalThis, { Request: RequestStub });

// jsdom implements neither scrolling nor fetch; tests mock fetch per case (see test/fetch-mock.ts).
window.scrollTo = () => undefined;
Element.prototype.scrollIntoView = () => undefined;

// Toasts live in a module-level store: start every test without the previous one's.
afterEach(() => {
  act(() => cleanNotifications());
});

// A request the test's fake server has no route for fails the test, even when the app caught its error.
afterEach(() => {
  const unexpected = takeUnexpectedRequests();
  if (unexpected.length) throw new Error(`Requests the test did not expect (give them a route): ${unexpected.join(', ')}`);
});
