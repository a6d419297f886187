import type { Application } from "@kpi-id/contracts";
import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { browser } from "@/lib/browser.ts";
import { appRedirectUrl } from "../api/app-redirect.ts";

export type AppIdOutcome = { kind: "none" } | { kind: "redirecting"; application: Application } | { kind: "unknown" };

function outcomeFor(appId: string | null, applications: Application[]): AppIdOutcome {
  if (!appId) return { kind: "none" };
  const application = applications.find((candidate) => candidate.id === appId);
  return application ? { kind: "redirecting", application } : { kind: "unknown" };
}

/**
 * appId in the query: one of the person's apps means go there at once, replacing this entry in the
 * history (Back leaves instead of landing here and redirecting again); anything else clears the
 * parameter and reports the redirect error.
 */
export function useAppIdRedirect(applications: Application[]): AppIdOutcome {
  const [searchParams, setSearchParams] = useSearchParams();
  const [outcome] = useState(() => outcomeFor(searchParams.get("appId"), applications));
  useEffect(() => {
    if (outcome.kind === "none") return;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("appId");
        return next;
      },
      { replace: true },
    );
    if (outcome.kind === "redirecting") browser.replace(appRedirectUrl(outcome.application.id));
  }, [outcome, setSearchParams]);
  return outcome;
}
