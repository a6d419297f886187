import { Attribute, Change, type Client } from "ldapts";

/**
 * Replaces the directory database's access rules in cn=config (cn=kpi-id manages cn=config, slapd.conf's
 * `database config`), so a client registered or removed in KPI ID reads what it may at once, without a restart.
 */
export async function writeAccessRules(client: Client, base: string, rules: string[]): Promise<void> {
  const { searchEntries } = await client.search("cn=config", {
    scope: "one",
    // base is checked by the configuration (dc=…,dc=… only), so it needs no escaping in the filter.
    filter: `(olcSuffix=${base})`,
    attributes: ["1.1"],
  });
  const database = searchEntries[0];
  if (!database) throw new Error(`slapd has no database for ${base}`);
  await client.modify(database.dn, [
    new Change({ operation: "replace", modification: new Attribute({ type: "olcAccess", values: rules }) }),
  ]);
}
