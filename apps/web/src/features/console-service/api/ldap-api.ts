import { adminLdapClientsSchema, type RegisterLdapClient, registeredLdapClientSchema } from "@kpi-id/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { consoleKey } from "@/features/console-shell/index.ts";
import { apiFetch, apiJson } from "@/lib/api-client.ts";

const ldapClientsKey = [...consoleKey, "ldap-clients"] as const;

/** The registered LDAP clients with their binds and latest refusals (the last 14 days). */
export function useLdapClients() {
  return useQuery({
    queryKey: ldapClientsKey,
    queryFn: () =>
      apiJson("/api/admin/ldap/clients", { failure: "Failed to load the LDAP clients" }, adminLdapClientsSchema),
  });
}

/** Registers a client (as `ldap client add`); its service account's secret comes back once. */
export function useRegisterLdapClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (client: RegisterLdapClient) =>
      apiJson(
        "/api/admin/ldap/clients",
        { method: "POST", body: client, failure: "Failed to register the LDAP client" },
        registeredLdapClientSchema,
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ldapClientsKey }),
  });
}

/** Removes a client (as `ldap client remove`): its service account stops binding at once. */
export function useRemoveLdapClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      apiFetch(`/api/admin/ldap/clients/${encodeURIComponent(name)}/remove`, {
        method: "POST",
        body: {},
        failure: "Failed to remove the LDAP client",
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ldapClientsKey }),
  });
}
