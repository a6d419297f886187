import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";

/** A second process opening the same embedded database would corrupt it; this is refused. */
export class DatabaseLockedError extends Error {
  override name = "DatabaseLockedError";
  readonly lockPath: string;
  readonly holderPid: number;
  constructor(lockPath: string, holderPid: number) {
    super(
      `The embedded database is already open in process ${holderPid} (lock file ${lockPath}). ` +
        "Stop that process, or set DATABASE_URL to share a PostgreSQL server between processes.",
    );
    this.lockPath = lockPath;
    this.holderPid = holderPid;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, "wx", 0o600);
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Takes an exclusive lock by creating the file; a lock left by a process that
 * died is taken over. Returns the release function.
 */
export function acquireLockFile(path: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path)) {
      return () => {
        if (readHolder(path) === process.pid) rmSync(path, { force: true });
      };
    }
    const holder = readHolder(path);
    if (holder !== undefined && holder !== process.pid && processIsAlive(holder)) {
      throw new DatabaseLockedError(path, holder);
    }
    if (holder === process.pid) throw new DatabaseLockedError(path, holder);
    rmSync(path, { force: true });
  }
  throw new Error(`Could not take the lock file ${path}`);
}
