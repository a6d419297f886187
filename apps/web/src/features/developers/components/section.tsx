import type { ReactNode } from "react";
import { Card } from "@/components/ui/card.tsx";

/** One card of the application page: an h2 and its content. */
export function DeveloperSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4" data-testid={`developer-${id}`}>
        <h2 id={`${id}-heading`} className="text-lg font-semibold text-foreground">
          {title}
        </h2>
        {children}
      </section>
    </Card>
  );
}
