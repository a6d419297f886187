import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useNavigate } from "react-router";
import { localizedHref } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { userQueryOptions } from "./get-user.ts";

/** After any sign-in: load the person, then go to the apps list keeping appId. */
export function useFinishSignIn(search: string) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const language = useLanguage();
  return useCallback(async () => {
    await queryClient.fetchQuery({ ...userQueryOptions, staleTime: 0 });
    navigate(localizedHref(language, "/apps", search, ["appId"]), { replace: true });
  }, [queryClient, navigate, language, search]);
}
