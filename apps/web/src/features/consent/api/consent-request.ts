import { type ConsentAnswer, type ConsentOutcome, consentOutcomeSchema } from "@kpi-id/contracts";
import { queryOptions, useMutation, useQuery } from "@tanstack/react-query";
import { type AnswerReader, apiJson } from "@/lib/api-client.ts";
import { browser } from "@/lib/browser.ts";
import { signInRequestQuery } from "./get-interaction.ts";

/**
 * A request waiting on the server for the person's answer (a SAML service provider's, a ticket link's): GET
 * {path}/{id} says what it asks for, POST {path}/{id} `{allow}` answers where the browser goes next.
 */
export function consentRequestApi<T>(key: string, path: string, schema: AnswerReader<T>) {
  const pathOf = (id: string) => `${path}/${encodeURIComponent(id)}`;
  const get = (id: string): Promise<T> => apiJson(pathOf(id), { failure: "Failed to load the request" }, schema);
  const options = (id: string) => queryOptions({ queryKey: [key, id], queryFn: () => get(id), ...signInRequestQuery });
  const answer = (id: string, allow: boolean): Promise<ConsentOutcome> => {
    const body: ConsentAnswer = { allow };
    return apiJson(pathOf(id), { method: "POST", body, failure: "Failed to answer the request" }, consentOutcomeSchema);
  };
  return {
    get,
    queryOptions: options,
    answer,
    useDetails: (id: string) => useQuery(options(id)),
    // The answer is a same-origin path (or the application's registered callback): the browser goes there.
    useAnswer: (id: string) =>
      useMutation({
        mutationFn: (allow: boolean) => answer(id, allow),
        onSuccess: ({ redirectTo }) => browser.assign(redirectTo),
      }),
  };
}
