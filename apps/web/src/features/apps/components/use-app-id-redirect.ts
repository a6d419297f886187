import { type Application, appLinkParams, appLinkRefusal } from "@kpi-id/contracts";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { browser } from "@/lib/browser.ts";
import { appRedirectUrl } from "../api/app-redirect.ts";

export type AppIdOutcome =
  | { kind: "none" }
  | { kind: "redirecting"; application: Application; link: URLSearchParams }
  | { kind: "unknown"; appId: string }
  | { kind: "unregisteredRedirectUri"; application: Application; tried: string | null }
  | { kind: "inTesting"; appId: string };

function outcomeFor(link: URLSearchParams, applications: Application[]): AppIdOutcome {
  const appId = link.get("appId");
  if (!appId) return { kind: "none" };
  // KPI ID refused the sign-in because the application is still being tested by its developers.
  if (link.get(appLinkRefusal.param) === appLinkRefusal.testing) return { kind: "inTesting", appId };
  const application = applications.find((candidate) => candidate.id === appId);
  if (!application) return { kind: "unknown", appId };
  // KPI ID refused the callback the application named: say so, and do not send the browser back round.
  if (link.get(appLinkRefusal.param) === appLinkRefusal.redirectUri)
    return { kind: "unregisteredRedirectUri", application, tried: link.get("redirectUri") };
  return { kind: "redirecting", application, link: new URLSearchParams(link) };
}

/**
 * appId in the query: one of the person's apps means go there at once, replacing this entry in the
 * history (Back leaves instead of landing here and redirecting again); anything else clears the
 * parameters and reports the redirect error, or the unregistered return address KPI ID refused.
 */
export function useAppIdRedirect(applications: Application[]): AppIdOutcome {
  const [searchParams, setSearchParams] = useSearchParams();
  const [outcome] = useState(() => outcomeFor(searchParams, applications));
  // Clearing the parameters gives setSearchParams a new identity, which runs this effect again: act once,
  // or the browser starts a second redirect (a second ticket) that aborts the first.
  const acted = useRef(false);
  useEffect(() => {
    if (outcome.kind === "none" || acted.current) return;
    acted.current = true;
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const name of [...appLinkParams, appLinkRefusal.param]) next.delete(name);
        return next;
      },
      { replace: true },
    );
    if (outcome.kind === "redirecting") browser.replace(appRedirectUrl(outcome.application.id, outcome.link));
  }, [outcome, setSearchParams]);
  return outcome;
}
