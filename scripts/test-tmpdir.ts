// The Vitest suite's temporary files in memory, where Linux has a RAM disk (issue 75).
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, statfsSync, symlinkSync } from "node:fs";
import { freemem, tmpdir } from "node:os";
import { basename, join } from "node:path";

/** statfs's f_type of a tmpfs (linux/magic.h). */
const tmpfsMagic = 0x01021994;
/**
 * Room the RAM disk must have, and memory the machine must have free: the suite's files take a few hundred MB at most,
 * and a tmpfs's free space is only its size limit (half the memory by default) less what it holds, not free memory.
 */
const neededFreeBytes = 2 * 1024 ** 3;
const defaultRamDisk = "/dev/shm";
const prefix = "kpi-id-test-tmp-";

export interface TestTempDir {
  /** TMPDIR for the suite's processes. */
  env: Record<string, string>;
  /** Removes the folder and its link; a failure is left to the next run to clear. */
  remove(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * What a run of this account's killed before it cleaned up left: its folder in memory and its link. Only real folders
 * this account owns: /dev/shm is everyone's, and a name another account planted (or its link) is not ours to delete.
 */
function removeAbandoned(ramDisk: string, linkDir: string): void {
  for (const name of readdirSync(ramDisk)) {
    if (!name.startsWith(prefix)) continue;
    // `${prefix}${pid}-XXXXXX` (mkdtemp's random end).
    const pid = Number(name.slice(prefix.length).split("-")[0]);
    const folder = join(ramDisk, name);
    try {
      const entry = lstatSync(folder);
      if (!entry.isDirectory() || entry.uid !== process.getuid?.() || !Number.isInteger(pid) || alive(pid)) continue;
      rmSync(folder, { recursive: true, force: true });
      rmSync(join(linkDir, name), { force: true });
    } catch {
      // Gone meanwhile, or not ours to remove: left as it is.
    }
  }
}

/** Whether /dev/shm is a tmpfs with room for the suite, on a machine with memory to spare. */
export function ramDiskUsable(ramDisk = defaultRamDisk): boolean {
  if (process.platform !== "linux" || !existsSync(ramDisk)) return false;
  const disk = statfsSync(ramDisk);
  return disk.type === tmpfsMagic && disk.bavail * disk.bsize >= neededFreeBytes && freemem() >= neededFreeBytes;
}

/**
 * A folder on /dev/shm for TMPDIR, when it is usable (ramDiskUsable) and the person has not chosen a TMPDIR.
 * The server's process tests write whole PGlite clusters (about 1,400 files each), 40 MB backups and the
 * configurations of FreeRADIUS, slapd and Apache into os.tmpdir(). On the 2-core CI machine's ext4 (mounted with
 * `discard`) making a file cost the kernel about 1 ms of CPU, on tmpfs 0.04 ms. Back to back: the six backup, restore
 * and data-folder files 95 and 111 CPU-seconds with /tmp, 76 and 84 with a tmpfs; the whole Vitest suite 669 and 630
 * (its server files 435 and 407 in their workers). What the tests check of files (modes, renames, locks) holds on
 * tmpfs as on ext4. The caller removes it once the suite has passed; a failed run's stays until the next run's start.
 *
 * TMPDIR is a link in the usual temporary folder to the folder, not the folder itself: FreeRADIUS opens a log file
 * whose path starts with /dev/ as a device, never creating it (its exfile).
 */
export function testTempDir(
  env: NodeJS.ProcessEnv = process.env,
  linkDir = tmpdir(),
  /** Tests only: a folder of their own on the RAM disk, so that they never touch a running suite's. */
  ramDisk = defaultRamDisk,
): TestTempDir | undefined {
  if (env.TMPDIR || process.platform !== "linux" || !existsSync(ramDisk)) return undefined;
  // Before the room is measured: a failed run's files count against it.
  removeAbandoned(ramDisk, linkDir);
  if (!ramDiskUsable(ramDisk)) return undefined;
  // A name no other account can have taken first (mkdtemp), which still says whose run it is.
  const folder = mkdtempSync(join(ramDisk, `${prefix}${process.pid}-`));
  const link = join(linkDir, basename(folder));
  // Others may pass through, as Apache's www-data does to the folders the tests open to it; not list or write.
  chmodSync(folder, 0o711);
  symlinkSync(folder, link);
  return {
    env: { TMPDIR: link },
    remove: () => {
      try {
        rmSync(folder, { recursive: true, force: true });
        rmSync(link, { force: true });
      } catch (error) {
        console.warn(`npm test: ${folder} is left for the next run to remove: ${String(error)}`);
      }
    },
  };
}
