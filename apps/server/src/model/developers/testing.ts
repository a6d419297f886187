import type { ApplicationStage } from "@kpi-id/contracts";
import type { ApplicationRow } from "../../platform/db/schema.ts";

/**
 * Whether a refusal is because the application is still in testing, in review or rejected (and not suspended):
 * the person then sees the "this application is in testing" page rather than "you have no access". Only asked
 * after the access check refused, so owners and testers never reach it.
 */
export function refusedForTesting(application: Pick<ApplicationRow, "lifecycle" | "suspended_at">): boolean {
  return application.lifecycle !== "live" && application.suspended_at === null;
}

/** The mark the sign-in page shows beside the application's name (issue 60): reviewed once live, else testing. */
export function applicationStage(application: Pick<ApplicationRow, "lifecycle">): ApplicationStage {
  return application.lifecycle === "live" ? "reviewed" : "testing";
}
