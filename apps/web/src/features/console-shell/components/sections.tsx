import { type ReactNode, useId } from "react";
import { Card } from "@/components/ui/card.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";

export function Section({
  title,
  children,
  testId,
  busy,
}: {
  title: string;
  children: ReactNode;
  testId: string;
  /** Its own answer is still on the way: the frame stands with a placeholder, so the layout below keeps still. */
  busy?: boolean;
}) {
  // The test id joins the id: a section that mounts later (the Wi-Fi figures, after their own query) was once
  // named by another section's heading in the CI rehearsal (axe landmark-unique), so the name cannot be borrowed.
  const id = `${useId()}-${testId}`;
  return (
    <Card className="p-4 sm:p-5">
      <section aria-labelledby={id} aria-busy={busy || undefined} className="flex flex-col gap-3" data-testid={testId}>
        <h3 id={id} className="text-base font-semibold text-foreground">
          {title}
        </h3>
        {children}
      </section>
    </Card>
  );
}

/**
 * Why a section shows no answer, in the place of its placeholder. An alert, as the app's other failures are (the
 * destructive Alert, the forms' errors): the line enters the page with its words (or is shown with its held screen),
 * and a screen reader says an alert as it appears, where a polite region mounted with its words is often not read.
 * The line alone is the live region, so nothing around it says the same words again.
 */
export function SectionFailure({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p role="alert" className="text-sm text-muted-foreground" data-testid={testId}>
      {children}
    </p>
  );
}

/**
 * A section's own answer that failed, said in its frame: what could not be read, then why in the words of the
 * server's code (the database away, no connection) through the app's error messages. A bare "open the page again"
 * helped with none of them, and with a refusal not at all: it comes again on every open.
 */
export function ReadFailed({ what, error, testId }: { what: string; error: unknown; testId: string }) {
  const describeError = useErrorMessage();
  return (
    <SectionFailure testId={testId}>
      {what} {describeError(error, "admin:readLater").message}
    </SectionFailure>
  );
}

export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-muted-foreground">{term}</dt>
          <dd className="break-words text-foreground">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
