import { Attribute, Change, type Client, type Entry } from "ldapts";
import type { WantedEntry } from "./entries.ts";
import { clientsDn, groupsDn, peopleDn, skeletonEntries } from "./entries.ts";

/** What a sync changed in slapd; all zero when the directory already was KPI ID's truth. */
export interface SyncReport {
  added: number;
  changed: number;
  renamed: number;
  removed: number;
}

export const emptyReport = (): SyncReport => ({ added: 0, changed: 0, renamed: 0, removed: 0 });

export interface WantedDirectory {
  base: string;
  people: WantedEntry[];
  groups: WantedEntry[];
  clients: WantedEntry[];
}

export type Found = { dn: string; attributes: Map<string, { name: string; values: string[] }> };

// Values compared without case: object class names and DNs (slapd may give back either case).
const caseless = new Set(["objectclass", "member"]);

/** An attribute's values as ldapts gives them (a string, a Buffer or a list of either), as text. */
export function valuesOf(value: Entry[string]): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((each) => (Buffer.isBuffer(each) ? each.toString("utf8") : String(each)));
}

export function found(entry: Entry): Found {
  const attributes = new Map<string, { name: string; values: string[] }>();
  for (const [name, value] of Object.entries(entry)) {
    const values = valuesOf(value);
    // ldapts lists every requested description, "*" too, with no values when the entry has none.
    if (name === "dn" || values.length === 0) continue;
    attributes.set(name.toLowerCase(), { name, values });
  }
  return { dn: entry.dn, attributes };
}

async function readBranch(client: Client, dn: string): Promise<Found[]> {
  try {
    const { searchEntries } = await client.search(dn, { scope: "one", attributes: ["*"], paged: { pageSize: 500 } });
    return searchEntries.map(found);
  } catch (error) {
    if (error instanceof Error && error.name === "NoSuchObjectError") return [];
    throw error;
  }
}

const sameValues = (name: string, wanted: string[], actual: string[]) => {
  const norm = (values: string[]) =>
    [...values].map((value) => (caseless.has(name.toLowerCase()) ? value.toLowerCase() : value)).sort();
  const a = norm(wanted);
  const b = norm(actual);
  return a.length === b.length && a.every((value, index) => value === b[index]);
};

/** The modifications that make `actual` hold exactly `wanted`'s attributes (KPI ID owns the whole entry). */
export function changesFor(wanted: WantedEntry, actual: Found): Change[] {
  const changes: Change[] = [];
  for (const [name, values] of Object.entries(wanted.attributes)) {
    const present = actual.attributes.get(name.toLowerCase());
    if (present && sameValues(name, values, present.values)) continue;
    changes.push(new Change({ operation: "replace", modification: new Attribute({ type: name, values }) }));
  }
  const wantedNames = new Set(Object.keys(wanted.attributes).map((name) => name.toLowerCase()));
  for (const [key, present] of actual.attributes) {
    if (wantedNames.has(key)) continue;
    changes.push(new Change({ operation: "delete", modification: new Attribute({ type: present.name, values: [] }) }));
  }
  return changes;
}

const key = (dn: string) => dn.toLowerCase();

/** How a branch's entries are matched: people by their unique id (so a rename moves the entry), others by DN. */
export interface Matching {
  ofWanted(entry: WantedEntry): string;
  ofFound(entry: Found): string;
}

export const byDn: Matching = { ofWanted: (entry) => key(entry.dn), ofFound: (entry) => key(entry.dn) };
export const byUniqueId: Matching = {
  ofWanted: (entry) => entry.attributes.eduPersonUniqueId?.[0] ?? key(entry.dn),
  // An entry without one (made by hand) matches nothing, so it is removed and the right one added.
  ofFound: (entry) => entry.attributes.get("edupersonuniqueid")?.values[0] ?? `dn:${key(entry.dn)}`,
};

/** Makes one branch hold exactly `wanted`. */
async function syncBranch(
  client: Client,
  branchDn: string,
  wanted: WantedEntry[],
  matching: Matching,
  report: SyncReport,
): Promise<void> {
  await syncEntries(client, branchDn, { actual: await readBranch(client, branchDn), wanted }, matching, report);
}

/**
 * Makes the entries of a branch found in `actual` exactly `wanted`: the whole branch for a full sync, or the few
 * entries one person's change touches (person-sync.ts), found by a search that would also have found every
 * wanted one that exists.
 */
export async function syncEntries(
  client: Client,
  branchDn: string,
  { actual, wanted }: { actual: Found[]; wanted: WantedEntry[] },
  matching: Matching,
  report: SyncReport,
): Promise<void> {
  const actualByKey = new Map(actual.map((entry) => [matching.ofFound(entry), entry]));
  const wantedKeys = new Set(wanted.map(matching.ofWanted));
  for (const entry of actual) {
    if (wantedKeys.has(matching.ofFound(entry))) continue;
    await client.del(entry.dn);
    report.removed++;
  }
  for (const entry of wanted) {
    let present = actualByKey.get(matching.ofWanted(entry));
    if (present && key(present.dn) !== key(entry.dn)) {
      // Renamed in KPI ID: the entry's RDN changes (group members refer to it by DN and are rewritten below).
      await client.modifyDN(present.dn, entry.dn.slice(0, entry.dn.length - branchDn.length - 1));
      report.renamed++;
      present = { ...present, dn: entry.dn };
    }
    if (!present) {
      await client.add(entry.dn, entry.attributes);
      report.added++;
      continue;
    }
    const changes = changesFor(entry, present);
    if (changes.length === 0) continue;
    await client.modify(entry.dn, changes);
    report.changed++;
  }
}

async function ensureSkeleton(client: Client, base: string, report: SyncReport): Promise<void> {
  for (const entry of skeletonEntries(base)) {
    try {
      await client.search(entry.dn, { scope: "base", attributes: ["1.1"] });
    } catch (error) {
      if (!(error instanceof Error && error.name === "NoSuchObjectError")) throw error;
      await client.add(entry.dn, entry.attributes);
      report.added++;
    }
  }
}

/**
 * Makes slapd's directory KPI ID's truth, whatever it held: missing entries are added, changed ones changed,
 * renamed people moved, and anything KPI ID does not have removed. Running it again changes nothing
 * (idempotent); a wiped directory or one restored from an old backup comes back whole.
 */
export async function syncDirectory(client: Client, wanted: WantedDirectory): Promise<SyncReport> {
  const report = emptyReport();
  const { base } = wanted;
  await ensureSkeleton(client, base, report);
  await syncBranch(client, peopleDn(base), wanted.people, byUniqueId, report);
  await syncBranch(client, groupsDn(base), wanted.groups, byDn, report);
  await syncBranch(client, clientsDn(base), wanted.clients, byDn, report);
  return report;
}
