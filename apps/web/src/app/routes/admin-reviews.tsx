import { ReviewQueueScreen } from "@/features/console-reviews/components/review-queue-screen.tsx";
import { ConsoleShell } from "@/features/console-shell/components/console-shell.tsx";

// The console's review queue (issue 39): part of the console's lazy chunk, loaded only for operators.

export function AdminReviewsRoute() {
  return (
    <ConsoleShell>
      <ReviewQueueScreen />
    </ConsoleShell>
  );
}
