/**
 * Setup for the vitest 'client' project (jsdom). No jest-dom: tests use plain DOM assertions.
 * Provides the browser APIs Mantine needs that jsdom lacks, and unmounts React trees after each test
 * (vitest runs without globals, so Testing Library cannot register its own cleanup).
 */
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// findBy* / waitFor give up after 5 s instead of Testing Library's 1 s: CI runs this project beside the server
// suite on two cores, where a page of Mantine rows can take longer than a second to render in jsdom (a page test
// failed there on its 1 s wait). What is awaited does not change, only how long a slow machine is given.
configure({ asyncUtilTimeout: 5000 });

// Lets React know act() is available (Testing Library sets it only inside its own helpers).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

if (typeof window !== 'undefined') {
  if (typeof window.matchMedia !== 'function') {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      configurable: true,
      value: (query: string): MediaQueryList => {
        const list: MediaQueryList = {
          matches: false,
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        };
        return list;
      },
    });
  }

  if (typeof window.ResizeObserver !== 'function') {
    class ResizeObserverStub implements ResizeObserver {
      observe(): void {}
      unobserve(): void {}
      disconnect(): void {}
    }
    Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
    Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
  }

  if (typeof Element.prototype.scrollIntoView !== 'function') {
    Element.prototype.scrollIntoView = function scrollIntoView(): void {};
  }

  if (typeof Element.prototype.scrollTo !== 'function') {
    Element.prototype.scrollTo = function scrollTo(): void {};
  }
}

afterEach(() => {
  cleanup();
});
