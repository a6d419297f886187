import { type SigninScript, signinScriptSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { apiJson } from "@/lib/api-client.ts";

/** The button script's content-hashed path and integrity; undefined while loading or when not built. */
export function usePinnedScript(): SigninScript | undefined {
  const script = useQuery({
    queryKey: ["signin-script"],
    queryFn: () =>
      apiJson("/api/signin-script", { failure: "Failed to load the script's integrity" }, signinScriptSchema),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return script.data;
}
