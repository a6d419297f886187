import type { CurrentUser, Language } from "@kpi-id/contracts";
import type { SessionWithApplications } from "../../model/sessions/store.ts";
import { localizedApplications } from "./applications.ts";
import { profileData } from "./profile.ts";

/** What GET /user answers for a session: the page the server writes carries the same answer. */
export function currentUserAnswer(session: SessionWithApplications, language: Language): CurrentUser {
  return {
    fullName: session.user.full_name,
    data: profileData(session.user, session.authMethod),
    applications: localizedApplications(session.applications, language),
    // Said only when true: the answer of almost everyone stays as it was.
    ...(session.consoleRole ? { console: true } : {}),
  };
}
