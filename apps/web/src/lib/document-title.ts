import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useMatches } from "react-router";

/** A route names its title with `handle: { title: "common:titles.…" }`; the deepest one wins. */
export interface TitleHandle {
  title: string;
}

function isTitleHandle(handle: unknown): handle is TitleHandle {
  return typeof handle === "object" && handle !== null && typeof (handle as TitleHandle).title === "string";
}

/** Sets the tab's title in the page's language: "Page — KPI ID", or "KPI ID" where a route names none. */
export function useDocumentTitle(): void {
  const { t, i18n } = useTranslation();
  const matches = useMatches();
  const key = matches.map((match) => match.handle).findLast(isTitleHandle)?.title;
  const language = i18n.language;
  useEffect(() => {
    document.title = key ? `${t(key, { lng: language })} — KPI ID` : "KPI ID";
  }, [key, t, language]);
}
