import { appLinkParams } from "@kpi-id/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { browser } from "@/lib/browser.ts";
import { userQueryOptions } from "@/lib/current-user.ts";
import { localizedHref, localizePath, returnPathFrom } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

/**
 * After any sign-in, go where the server says (`next`). The apps list is a page of this app: load the
 * person and go there keeping the application's sign-in link (appId, state, redirectUri). Anything else (an application's OpenID Connect sign-in the server
 * kept waiting) is a page load.
 */
export function useFinishSignIn(search: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const language = useLanguage();
  return useCallback(
    async (next: string) => {
      // Led to set a second factor up first: the application's sign-in link comes along, to go on after it.
      if (next === `${localizePath(language, "/account")}#second-factor`) {
        await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 });
        navigate(`${localizedHref(language, "/account", search, appLinkParams)}#second-factor`, { replace: true });
        return;
      }
      if (next !== localizePath(language, "/apps")) {
        browser.assign(next);
        return;
      }
      await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 });
      // A console page opened while signed out sent the person here with its path: back to it.
      const returnTo = returnPathFrom(search);
      if (returnTo) {
        navigate(returnTo, { replace: true });
        return;
      }
      navigate(localizedHref(language, "/apps", search, appLinkParams), { replace: true });
    },
    [queryClient, navigate, language, search],
  );
}
