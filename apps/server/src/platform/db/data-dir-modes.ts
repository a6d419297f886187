import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

// DATA_DIR holds the embedded database (argon2 hashes, tax ids, everyone's records), the generated session
// secret and the lock file: only the account the service runs as may read it. PGlite's file system writes some
// files with explicit modes (0666, 0644) whatever the umask, so the tree is also walked and corrected.

export const privateDirectoryMode = 0o700;
export const privateFileMode = 0o600;
/** The umask that makes every new file 0600 and folder 0700. */
export const privateUmask = 0o077;

/**
 * Sets the process umask so new files are 0600 and folders 0700. Called by the server's and the CLI's entry
 * points before anything is written; a worker thread cannot change it (tests), the tree walk covers that.
 */
export function usePrivateUmask(): void {
  try {
    process.umask(privateUmask);
  } catch {
    // ERR_WORKER_UNSUPPORTED_OPERATION: not the main thread; restrictTree still corrects what is written.
  }
}

function changeMode(path: string, mode: number): boolean {
  try {
    chmodSync(path, mode);
    return true;
  } catch {
    return false; // EPERM: not this account's file; the database refuses to open it and says so.
  }
}

/** What restrictTree changed. */
export interface ModeFixes {
  directories: number;
  files: number;
}

/**
 * What in DATA_DIR is the service's: the database folder, the lock file, restores' folders beside it
 * (pglite.restoring-…, pglite.before-restore-…) and generated secrets. Anything else an operator keeps there
 * (DATA_DIR=. by mistake) is not walked into: its modes are not ours to change.
 */
const isServiceEntry = (name: string) => name === "pglite" || name.startsWith("pglite.") || name.endsWith(".secret");

/**
 * `root` to 0700, and every folder of the service's entries under it (isServiceEntry) to 0700 and every file
 * to 0600, symbolic links left alone (their mode means nothing, and following one could reach outside).
 * `whole`: every entry under `root` (a folder that is the service's throughout, such as a restore's).
 * Answers how many had to change. One that cannot be changed (another account's) is left to fail on use.
 */
export function restrictTree(root: string, { whole = false } = {}): ModeFixes {
  const fixes: ModeFixes = { directories: 0, files: 0 };
  const visit = (path: string, top = false) => {
    let stat: ReturnType<typeof lstatSync>;
    try {
      stat = lstatSync(path);
    } catch {
      return; // Gone meanwhile (PGlite removes temporary files): nothing to protect.
    }
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? privateDirectoryMode : privateFileMode;
    if ((stat.mode & 0o777) !== wanted && changeMode(path, wanted)) {
      if (stat.isDirectory()) fixes.directories += 1;
      else fixes.files += 1;
    }
    if (!stat.isDirectory()) return;
    for (const name of readdirSync(path)) if (whole || !top || isServiceEntry(name)) visit(join(path, name));
  };
  visit(root, true);
  return fixes;
}

/**
 * DATA_DIR made (0700) if missing, and an existing install's modes corrected with one warning line naming
 * what changed; nothing is said when nothing had to change. Returns the line, if one was said.
 */
export function protectDataDir(dataDir: string, warn: (line: string) => void): string | undefined {
  mkdirSync(dataDir, { recursive: true, mode: privateDirectoryMode });
  const { directories, files } = restrictTree(dataDir);
  if (directories === 0 && files === 0) return undefined;
  const line =
    `DATA_DIR ${dataDir} was readable by other local accounts: made ${directories} folder(s) 0700 and ` +
    `${files} file(s) 0600`;
  warn(line);
  return line;
}
