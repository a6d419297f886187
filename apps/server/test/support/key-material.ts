// Keys and certificates that test support makes with Debian's openssl (SAML keys, the FreeRADIUS and slapd CA, nginx's,
// Apache's and SimpleSAMLphp's site certificates): made once per worker and copied into each folder that asks, instead
// of a new RSA key per service provider, federation or stand-in (issue 75: 229 openssl runs, 44 CPU-seconds a run).
// None of these tests is about making the key. Within one test file every request still gets key material of its own
// (the nth request for a name in a file gets the worker's nth), so two service providers of one test never share a
// key; only files after it in the same worker see the same keys again.
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The run's folder for the workers' key material (made and removed by global-setup.ts); else the system's. */
export const RUN_KEY_FOLDER_VARIABLE = "KPI_ID_TEST_KEY_FOLDER";

interface Store {
  /** A folder holding what was made, by what was asked and its rank in the file. */
  made: Map<string, string>;
  askedInFile: Map<string, number>;
  /** Folders a test file made (its copies of the keys), removed when the file ends. */
  fileFolders: string[];
}
const storeKey = Symbol.for("kpi-id.test.key-material");
const globals = globalThis as { [storeKey]?: Store };
// On globalThis: the worker's files share modules (isolate: false) and the store must outlive each file.
globals[storeKey] ??= { made: new Map(), askedInFile: new Map(), fileFolders: [] };
const store = globals[storeKey];

/** A new folder under the system's temporary one that goes when the test file ends (`endOfTestFile`). */
export function folderForThisFile(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  store.fileFolders.push(folder);
  return folder;
}

/** Vitest's setup file calls this after each test file: the folders it made go. */
export function endOfTestFile(): void {
  for (const folder of store.fileFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** Vitest's setup file calls this before each test file: its requests count from the first again. */
export function startOfTestFile(): void {
  store.askedInFile.clear();
}

/**
 * Copies into `into` (made if missing) the files `make` writes into an empty folder for `what`, running `make` only
 * the first time the worker is asked for `what` at this rank in a test file. `what` names everything that shapes the
 * files (algorithm, subject, names, validity).
 */
export function keyMaterial(what: string, into: string, make: (folder: string) => void): void {
  const rank = (store.askedInFile.get(what) ?? 0) + 1;
  store.askedInFile.set(what, rank);
  const key = `${what}#${rank}`;
  let folder = store.made.get(key);
  if (!folder) {
    folder = mkdtempSync(join(process.env[RUN_KEY_FOLDER_VARIABLE] ?? tmpdir(), "kpi-id-key-material-"));
    make(folder);
    store.made.set(key, folder);
  }
  cpSync(folder, into, { recursive: true });
}
