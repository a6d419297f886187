import type { Application } from "@kpi-id/contracts";
import { ExternalLink } from "lucide-react";
import { appRedirectUrl } from "../api/app-redirect.ts";
import { AppIcon } from "./app-icon.tsx";

interface AppCardProps {
  application: Application;
  newTabHint: string;
}

/** Opens the application in a new tab through the server's ticket redirect. */
export function AppCard({ application, newTabHint }: AppCardProps) {
  return (
    <a
      href={appRedirectUrl(application.id)}
      target="_blank"
      rel="noopener noreferrer"
      className="group flex h-full gap-4 rounded-xl border border-border bg-white p-5 shadow-sm transition hover:border-primary/40 hover:shadow-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
      data-testid="app-card"
    >
      <span className="flex size-12 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
        <AppIcon name={application.name} />
      </span>
      <span className="min-w-0 flex-1 space-y-1">
        <span className="flex items-center gap-2 font-semibold text-foreground group-hover:text-primary">
          {application.title}
          <ExternalLink className="size-4 shrink-0 text-muted-foreground" aria-hidden />
          <span className="sr-only">{newTabHint}</span>
        </span>
        <span className="block text-sm leading-5 text-muted-foreground">{application.description}</span>
      </span>
    </a>
  );
}
