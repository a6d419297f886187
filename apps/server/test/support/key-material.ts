// Keys and certificates that test support makes with Debian's openssl (SAML keys, the FreeRADIUS and slapd CA, nginx's,
// Apache's and SimpleSAMLphp's site certificates): made once per run and copied into each folder that asks, instead
// of a new RSA key per service provider, federation or stand-in (issue 75: 229 openssl runs, 44 CPU-seconds a run;
// then 109 once per worker, 22 CPU-seconds). None of these tests is about making the key. Within one test file every
// request still gets key material of its own (the nth request for a name in a file gets the run's nth), so two
// service providers of one test never share a key; only other files see the same keys again.
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
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
 * The folder holding what `make` wrote for `key`: the run's (global-setup.ts), shared by its workers, where one
 * exists; else one of this worker's own. `make` writes into a folder of its own, which is then renamed into place
 * whole, so a worker never reads another's half-written files; when two workers make the same one at once, the
 * first rename wins and the other's copy goes.
 */
function madeFolder(key: string, make: (folder: string) => void): string {
  const runFolder = process.env[RUN_KEY_FOLDER_VARIABLE];
  if (!runFolder) {
    const folder = mkdtempSync(join(tmpdir(), "kpi-id-key-material-"));
    make(folder);
    return folder;
  }
  const shared = join(runFolder, `made-${createHash("sha256").update(key).digest("hex").slice(0, 32)}`);
  if (existsSync(shared)) return shared;
  const own = mkdtempSync(join(runFolder, "making-"));
  make(own);
  try {
    renameSync(own, shared);
  } catch (error) {
    // Another worker renamed its copy into place first (a non-empty folder cannot be renamed over).
    rmSync(own, { recursive: true, force: true });
    if (!existsSync(shared)) throw error;
  }
  return shared;
}

/**
 * Copies into `into` (made if missing) the files `make` writes into an empty folder for `what`, running `make` only
 * the first time the run is asked for `what` at this rank in a test file. `what` names everything that shapes the
 * files (algorithm, subject, names, validity).
 */
export function keyMaterial(what: string, into: string, make: (folder: string) => void): void {
  const rank = (store.askedInFile.get(what) ?? 0) + 1;
  store.askedInFile.set(what, rank);
  const key = `${what}#${rank}`;
  let folder = store.made.get(key);
  if (!folder) {
    folder = madeFolder(key, make);
    store.made.set(key, folder);
  }
  cpSync(folder, into, { recursive: true });
}
