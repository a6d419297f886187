// Test code for the console's wait tests, part of console-shell's public surface for the other console features'
// tests (never imported by the app: index.ts does not carry it). It reaches into answers-first.tsx, and the shared
// test/ directory imports no feature (app → features → shared). Not a *.test.ts file, so not run itself.
import { afterEach } from "vitest";
import { answerWait } from "./components/answers-first.tsx";

/** Puts the console screens' answer wait back after each test of the block, for tests that shorten or lengthen it. */
export function restoreAnswerWait() {
  const defaultWait = answerWait.ms;
  afterEach(() => {
    answerWait.ms = defaultWait;
  });
}

/** Whether `second` stands after `first` in the page: below it in the console's one-column layout at 390 px. */
export const follows = (first: Element, second: Element) =>
  Boolean(first.compareDocumentPosition(second) & Node.DOCUMENT_POSITION_FOLLOWING);
