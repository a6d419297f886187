import { type CreatedLdapPassword, createdLdapPasswordSchema, ldapPasswordsSchema } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { ApiError, apiFetch, apiJson } from "@/lib/api-client.ts";
import { accountQueryKey } from "./account-queries.ts";

/** The person's application passwords; null when the service runs no slapd (the section is then not shown). */
export function useLdapPasswords() {
  return useQuery({
    queryKey: [...accountQueryKey, "ldap"],
    queryFn: async () => {
      try {
        return await apiJson(
          "/api/account/ldap",
          { failure: "Failed to load application passwords" },
          ldapPasswordsSchema,
        );
      } catch (error) {
        if (error instanceof ApiError && error.code === "ldap.not_configured") return null;
        throw error;
      }
    },
  });
}

/** A new application password, through any registered client or (clientId) only through that one. */
export const createLdapPassword = (wanted: { name: string; clientId: string | null }): Promise<CreatedLdapPassword> =>
  apiJson(
    "/api/account/ldap",
    {
      method: "POST",
      body: { name: wanted.name.trim(), clientId: wanted.clientId },
      failure: "Failed to create an application password",
    },
    createdLdapPasswordSchema,
  );

export const revokeLdapPassword = (id: string) =>
  apiFetch(`/api/account/ldap/${encodeURIComponent(id)}/revoke`, {
    method: "POST",
    body: {},
    failure: "Failed to revoke an application password",
  });
