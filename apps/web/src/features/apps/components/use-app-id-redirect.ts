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
 * appId in the query: one of the person's apps means go there at once;
 * anything else clears the parameter and reports the redirect error.
 */
export function useAppIdRedirect(applications: Application[]): AppIdOutcome {
  const [searchParams, setSearchParams] = useSearchParams();
  const [outcome] = useState(() => outcomeFor(searchParams.get("appId"), applications));
  useEffect(() => {
    if (outcome.kind === "redirecting") browser.assign(appRedirectUrl(outcome.application.id));
    if (outcome.kind === "unknown") {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete("appId");
          return next;
        },
        { replace: true },
      );
    }
  }, [outcome, setSearchParams]);
  return outcome;
}
