import type { Application } from "@kpi-id/contracts";
import { AppCard } from "./app-card.tsx";

export function AppsGrid({ applications, newTabHint }: { applications: Application[]; newTabHint: string }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2">
      {applications.map((application) => (
        <li key={application.id}>
          <AppCard application={application} newTabHint={newTabHint} />
        </li>
      ))}
    </ul>
  );
}
