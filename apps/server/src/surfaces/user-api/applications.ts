import type { Application, Language } from "@kpi-id/contracts";
import { localizedTexts } from "../../model/apps/localized.ts";
import type { SessionApplication } from "../../model/sessions/store.ts";

/** An application as a reader of `language` sees it: English text where the operator gave it, else Ukrainian. */
function localized(application: SessionApplication, language: Language): Application {
  return { id: application.id, name: application.name, ...localizedTexts(application, language) };
}

/** The person's applications in `language`; English ones ordered by the English title shown. */
export function localizedApplications(applications: SessionApplication[], language: Language): Application[] {
  const shown = applications.map((application) => localized(application, language));
  // The Ukrainian titles arrive ordered by the database.
  return language === "en" ? shown.sort((a, b) => a.title.localeCompare(b.title, "en")) : shown;
}
