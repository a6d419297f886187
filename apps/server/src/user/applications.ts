import type { Application, Language } from "@kpi-id/contracts";
import type { SessionApplication } from "../sessions/store.ts";

/** An application as a reader of `language` sees it: English text where the operator gave it, else Ukrainian. */
function localized(application: SessionApplication, language: Language): Application {
  const english = language === "en";
  return {
    id: application.id,
    name: application.name,
    title: (english && application.title_en) || application.title,
    description: (english && application.description_en) || application.description,
  };
}

/** The person's applications in `language`; English ones ordered by the English title shown. */
export function localizedApplications(applications: SessionApplication[], language: Language): Application[] {
  const shown = applications.map((application) => localized(application, language));
  // The Ukrainian titles arrive ordered by the database.
  return language === "en" ? shown.sort((a, b) => a.title.localeCompare(b.title, "en")) : shown;
}
