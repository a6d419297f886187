import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { options } from "preact";
import { afterEach, beforeEach, vi } from "vitest";
import { initTestI18n } from "./i18n.ts";

// jsdom has no matchMedia; the app asks it for the mobile breakpoint.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// Effects of renders outside act() (a fetch answered, a timer) run on a plain timer. Preact's default pairs
// requestAnimationFrame with a 35 ms timeout that calls cancelAnimationFrame; when a file's last such render
// left that timeout pending, it fired after jsdom's teardown had removed cancelAnimationFrame, and the whole
// run failed on an unhandled ReferenceError though every test passed (CI, route-error.test.tsx). Components
// unmounted by cleanup() are skipped when the effects flush.
options.requestAnimationFrame = (flush) => {
  setTimeout(flush);
};

// findBy… and waitFor wait up to 15 s instead of 1 s: a route's module loads slowly on a busy machine
// (vitest.config.ts); the first test of the console's review queue took 5.5 s to see its lazy page on a machine
// whose page faults are slow (a rehearsal, 26 November). They still answer as soon as the element is there, and
// what the tests expect to see is the same; the tests' own limit (20 s) stays above this one.
configure({ asyncUtilTimeout: 15_000 });

beforeEach(async () => {
  await initTestI18n("uk");
});

afterEach(async () => {
  // Sonner keeps its toasts in module state: one test's toasts would otherwise fill the next test's
  // toaster (it shows three at a time) and hide the message that test waits for.
  (await import("sonner")).toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});
