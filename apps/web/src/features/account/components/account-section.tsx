import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card.tsx";

interface AccountSectionProps {
  id: string;
  icon: LucideIcon;
  title: string;
  description?: ReactNode;
  /** A button or two beside the title (wraps under it on a phone). */
  actions?: ReactNode;
  children: ReactNode;
}

/** One card of the account page: an h2 with its icon, a line of explanation, the content. */
export function AccountSection({ id, icon: Icon, title, description, actions, children }: AccountSectionProps) {
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4" data-testid={`account-${id}`}>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
          <div className="space-y-1">
            <h2 id={`${id}-heading`} className="flex items-center gap-2 text-lg font-semibold text-foreground">
              <Icon className="size-5 text-primary" aria-hidden />
              {title}
            </h2>
            {description ? <p className="text-sm text-muted-foreground">{description}</p> : null}
          </div>
          {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
        </div>
        {children}
      </section>
    </Card>
  );
}

/** A list of rows inside a section, divided by lines. */
export function AccountList({ children, label }: { children: ReactNode; label: string }) {
  return (
    <ul className="divide-y divide-border rounded-lg border border-border" aria-label={label}>
      {children}
    </ul>
  );
}

/** A small label beside a row's title: "This device", "Linked", "Failed". */
export function Badge({ children, tone = "neutral" }: { children: ReactNode; tone?: "neutral" | "good" | "bad" }) {
  const tones = {
    neutral: "bg-muted text-foreground",
    good: "bg-primary/10 text-primary",
    bad: "bg-destructive/10 text-destructive-strong",
  };
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tones[tone]}`}>{children}</span>;
}
