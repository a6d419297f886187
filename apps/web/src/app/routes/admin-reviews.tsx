import { ConsoleShell } from "@/features/admin/components/console-shell.tsx";
import { ReviewQueueScreen } from "@/features/admin/components/review-queue-screen.tsx";

// The console's review queue (issue 39): part of the console's lazy chunk, loaded only for operators.

export function AdminReviewsRoute() {
  return (
    <ConsoleShell>
      <ReviewQueueScreen />
    </ConsoleShell>
  );
}
