import { Attribute, Change, type Client, type Entry } from "ldapts";
import { valuesOf } from "./sync.ts";

/** slapd numbers each olcAccess value ({0}to …, {1}to …): the order, which the text read back carries. */
const orderPrefix = /^\{(\d+)\}/;

/** The values of an olcAccess read back from cn=config, in their order and without their numbers. */
export function accessRulesOf(value: Entry[string] | undefined): string[] {
  return (value === undefined ? [] : valuesOf(value))
    .map((text) => ({ order: Number(orderPrefix.exec(text)?.[1] ?? 0), text: text.replace(orderPrefix, "") }))
    .sort((a, b) => a.order - b.order)
    .map((rule) => rule.text);
}

const sameRules = (present: string[], wanted: string[]) =>
  present.length === wanted.length && present.every((rule, index) => rule === wanted[index]);

/**
 * Makes the directory database's access rules in cn=config exactly `rules` (cn=kpi-id manages cn=config,
 * slapd.conf's `database config`), so a client registered or removed in KPI ID reads what it may at once, without
 * a restart. Written only when they differ: a replace makes slapd parse every rule again and write its cn=config
 * file, at every periodic resync, for rules that rarely change.
 */
export async function writeAccessRules(client: Client, base: string, rules: string[]): Promise<void> {
  const { searchEntries } = await client.search("cn=config", {
    scope: "one",
    // base is checked by the configuration (dc=…,dc=… only), so it needs no escaping in the filter.
    filter: `(olcSuffix=${base})`,
    attributes: ["olcAccess"],
  });
  const database = searchEntries[0];
  if (!database) throw new Error(`slapd has no database for ${base}`);
  if (sameRules(accessRulesOf(database.olcAccess), rules)) return;
  await client.modify(database.dn, [
    new Change({ operation: "replace", modification: new Attribute({ type: "olcAccess", values: rules }) }),
  ]);
}
