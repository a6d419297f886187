import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { LiveStatus } from "@/components/ui/live-status.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";

/** How long a console screen waits for the answers it holds its content for before it shows it anyway (tests change it). */
export const answerWait = { ms: 2_000 };

/**
 * Whether a console screen still holds its content back for answers that change its height above what an operator
 * taps, and whether it stopped waiting for them (`late`: it waited `answerWait` in vain). A section arriving after
 * the screen pushed what was under a finger down by hundreds of pixels at 390 px, and the tap landed on the section;
 * waiting (bounded, since a slow answer must not keep the whole screen away) keeps the layout still instead.
 * `screen` names what is shown (a person's or an application's id): once shown it is never hidden again, not by a
 * refetch either, but another one is waited for afresh.
 */
export function useAnswersFirst(screen: string, watching: boolean, pending: boolean) {
  const [shownFor, setShownFor] = useState<string>();
  const [lateFor, setLateFor] = useState<string>();
  const shown = shownFor === screen;
  const late = lateFor === screen;
  useEffect(() => {
    if (watching && !pending) setShownFor(screen);
  }, [screen, watching, pending]);
  useEffect(() => {
    if (!watching || !pending || shown) return;
    const timer = setTimeout(() => setLateFor(screen), answerWait.ms);
    return () => clearTimeout(timer);
  }, [screen, watching, pending, shown]);
  return { waiting: watching && pending && !shown && !late, late };
}

/** Content held back: mounted meanwhile, so its own requests go out beside the awaited ones, but not shown. */
export function Held({ waiting, children }: { waiting: boolean; children: ReactNode }) {
  return (
    <div hidden={waiting} className={waiting ? undefined : "contents"}>
      {children}
    </div>
  );
}

/**
 * A console screen's placeholder while its content is read or held: a skeleton of about its height for the eye, and
 * a status saying "Loading…" for a screen reader, which heard nothing at all of a bare skeleton (the held content is
 * `hidden`, so nothing else on the screen said why it was empty). LiveStatus puts its words in just after it enters
 * the page, so that they are read.
 */
export function ScreenLoading({ className, testId }: { className: string; testId?: string }) {
  const { t } = useTranslation("admin");
  return (
    <LiveStatus words={t("admin:loading")} testId={testId}>
      <Skeleton className={className} />
    </LiveStatus>
  );
}
