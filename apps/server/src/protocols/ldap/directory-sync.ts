import { listLdapClients } from "../../model/ldap/clients.ts";
import { directoryGroups, directoryPeople } from "../../model/ldap/directory.ts";
import type { Db } from "../../platform/db/schema.ts";
import { directoryAccessRules } from "./acl.ts";
import { connectToDirectory } from "./connection.ts";
import { clientEntry, groupEntry, personEntry, type WantedEntry } from "./entries.ts";
import { writeAccessRules } from "./rules.ts";
import { type SyncReport, syncDirectory } from "./sync.ts";

export interface DirectorySettings {
  ldapiPath: string;
  baseDn: string;
  scope: string;
}

/** One full synchronisation: KPI ID's people, groups, clients and access rules, written into slapd. */
export async function synchroniseDirectory(db: Db, settings: DirectorySettings): Promise<SyncReport> {
  const { baseDn: base, scope } = settings;
  const [people, groups, clients] = await Promise.all([directoryPeople(db), directoryGroups(db), listLdapClients(db)]);
  const client = await connectToDirectory(settings.ldapiPath);
  try {
    const report = await syncDirectory(client, {
      base,
      people: people.map((person) => personEntry(person, base, scope)),
      groups: groups.map((group) => groupEntry(group, base)).filter((entry): entry is WantedEntry => !!entry),
      clients: clients.map((each) => clientEntry(each.name, each.title, base)),
    });
    await writeAccessRules(client, base, directoryAccessRules(clients, base));
    return report;
  } finally {
    await client.unbind().catch(() => {});
  }
}
