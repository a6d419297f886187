import { type ReactNode, useEffect, useState } from "react";

/** How long a status stands empty in the page before its words go in. */
const wordsDelayMs = 100;

interface LiveStatusProps {
  /** What a screen reader says; visually hidden. */
  words: string;
  /** What the eye sees meanwhile (a spinner, a skeleton); it is not read. */
  children?: ReactNode;
  className?: string;
  testId?: string;
}

/**
 * A polite live region (role="status") that says `words` while something loads. It enters the page empty and its
 * words go in `wordsDelayMs` later: a live region mounted with its words already in is often not read (a screen
 * reader hears of a new region, not of a change in one), and one that is in the page first is read when its words
 * change. The words sit in a visually hidden span, so what is seen keeps its size and place before and after.
 */
export function LiveStatus({ words, children, className, testId }: LiveStatusProps) {
  const [said, setSaid] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSaid(true), wordsDelayMs);
    // A status gone before its words went in must not set the state of an unmounted component.
    return () => clearTimeout(timer);
  }, []);
  return (
    <div role="status" className={className} data-testid={testId}>
      <span className="sr-only">{said ? words : null}</span>
      {children}
    </div>
  );
}

interface StatusLineProps {
  /** Seen as soon as the line is in the page, and said once its status is. */
  words: string;
  /** The seen copy when parts of it are styled; its text must be `words`. */
  children?: ReactNode;
  className?: string;
  testId?: string;
}

/**
 * A line of text seen at once (a result, a confirmation) and said by a LiveStatus beside it, whose copy of the words
 * goes in after it enters the page. The seen copy is hidden from screen readers, which would otherwise come upon
 * the words twice; the status's copy is visually hidden and takes no room, so the line looks as a plain one would.
 */
export function StatusLine({ words, children, className, testId }: StatusLineProps) {
  return (
    <div className={className} data-testid={testId}>
      <p aria-hidden>{children ?? words}</p>
      <LiveStatus words={words} />
    </div>
  );
}
