import { type Client, EqualityFilter, type Filter, OrFilter } from "ldapts";
import { directoryGroups, directoryPeople, groupNamesOf } from "../../model/ldap/directory.ts";
import type { Db } from "../../platform/db/schema.ts";
import { connectToDirectory } from "./connection.ts";
import type { DirectorySettings } from "./directory-sync.ts";
import { groupEntry, groupsDn, peopleDn, personEntry, uniqueIdOf, type WantedEntry } from "./entries.ts";
import { byDn, byUniqueId, emptyReport, type Found, found, type SyncReport, syncEntries } from "./sync.ts";

const anyOf = (filters: Filter[]): Filter =>
  filters.length === 1 ? (filters[0] as Filter) : new OrFilter({ filters });
const equal = (attribute: string) => (value: string) => new EqualityFilter({ attribute, value });

async function search(client: Client, base: string, filters: Filter[]): Promise<Found[]> {
  if (filters.length === 0) return [];
  const { searchEntries } = await client.search(base, { scope: "one", filter: anyOf(filters), attributes: ["*"] });
  return searchEntries.map(found);
}

/**
 * Brings the directory in step for a change to these people (added, renamed, moved to another unit, disabled,
 * erased): their own entries, found by eduPersonUniqueId whatever their name was, and the groups they were in
 * (found by member, under the old name too) or should now be in, each made exactly KPI ID's truth. Two searches
 * and the changes themselves, where a full pass reads the whole directory; the full pass (every
 * LDAP_RESYNC_SECONDS) still repairs anything else. The skeleton is assumed: a wiped directory is noticed by the
 * full pass, and a person's entry added without its branch fails, which makes the service run a full pass.
 */
export async function synchronisePeople(db: Db, settings: DirectorySettings, ids: string[]): Promise<SyncReport> {
  const { baseDn: base, scope } = settings;
  const [people, shouldBeIn] = await Promise.all([directoryPeople(db, ids), groupNamesOf(db, ids)]);
  const wantedPeople = people.map((person) => personEntry(person, base, scope));
  const client = await connectToDirectory(settings.ldapiPath);
  try {
    const report = emptyReport();
    const entries = await search(
      client,
      peopleDn(base),
      ids.map((id) => uniqueIdOf(id, scope)).map(equal("eduPersonUniqueId")),
    );
    // Members are named by DN: the name before a rename and after it.
    const memberDns = [...new Set([...entries.map((entry) => entry.dn), ...wantedPeople.map((entry) => entry.dn)])];
    const groupFilters = [...memberDns.map(equal("member")), ...shouldBeIn.map(equal("cn"))];
    const groups = await search(client, groupsDn(base), groupFilters);
    const names = new Set([...shouldBeIn, ...groups.flatMap((group) => group.attributes.get("cn")?.values ?? [])]);
    const wantedGroups = (await directoryGroups(db, [...names]))
      .map((group) => groupEntry(group, base))
      .filter((entry): entry is WantedEntry => !!entry);
    await syncEntries(client, peopleDn(base), { actual: entries, wanted: wantedPeople }, byUniqueId, report);
    await syncEntries(client, groupsDn(base), { actual: groups, wanted: wantedGroups }, byDn, report);
    return report;
  } finally {
    await client.unbind().catch(() => {});
  }
}
