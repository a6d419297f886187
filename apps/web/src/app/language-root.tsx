import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Navigate, Outlet, useLocation, useParams } from "react-router";
import { userQueryKey } from "@/lib/current-user.ts";
import { useDocumentTitle } from "@/lib/document-title.ts";
import { i18n } from "@/lib/i18n.ts";
import { isLanguage, toLanguage } from "@/lib/languages.ts";
import { withLanguage } from "@/lib/paths.ts";

/** Pages of the app that may be reached without a language segment and get one added. */
export const languagePages = [
  "diia",
  "bankid-auth",
  "apps",
  "auth-success",
  "button-wizard",
  "faq",
  "privacy-policy",
  "terms-of-use",
  // A home institution's refused answer lands here (protocols/saml/visitors/routes.ts).
  "institution",
];

/** The language segment decides the UI language; anything else in its place is redirected. */
export function LanguageRoot() {
  const { lang } = useParams();
  const { pathname, search } = useLocation();
  const valid = isLanguage(lang);
  const queryClient = useQueryClient();
  useDocumentTitle();
  useEffect(() => {
    if (!valid || i18n.language === lang) return;
    // /user answers application titles in the request's language: ask again in the new one.
    void i18n.changeLanguage(lang).then(() => queryClient.invalidateQueries({ queryKey: userQueryKey }));
  }, [valid, lang, queryClient]);
  useEffect(() => {
    if (valid) document.documentElement.lang = lang;
  }, [valid, lang]);
  if (!valid) {
    const current = toLanguage(i18n.language);
    const target = languagePages.includes(lang ?? "") ? withLanguage(current, pathname, search) : "/";
    return <Navigate to={target} replace />;
  }
  return <Outlet />;
}

/** '/' and other language-less entry points: the detected language and the query string are added. */
export function LanguageRedirect() {
  const { pathname, search } = useLocation();
  return <Navigate to={withLanguage(toLanguage(i18n.language), pathname, search)} replace />;
}
