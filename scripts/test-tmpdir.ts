// The Vitest suite's temporary files in memory, where Linux has a RAM disk (issue 75).
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statfsSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";

/** statfs's f_type of a tmpfs (linux/magic.h). */
const tmpfsMagic = 0x01021994;
/** Left free for everything else in memory: the suite's files take a few hundred MB at most. */
const neededFreeBytes = 2 * 1024 ** 3;
const ramDisk = "/dev/shm";
const prefix = "kpi-id-test-tmp-";

export interface TestTempDir {
  /** TMPDIR for the suite's processes. */
  env: Record<string, string>;
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

/** What a run that was killed before it cleaned up left: its folder in memory and its link. */
function removeAbandoned(linkDir: string): void {
  for (const name of readdirSync(ramDisk)) {
    // `${prefix}${pid}-XXXXXX` (mkdtemp's random end).
    const pid = Number(name.slice(prefix.length).split("-")[0]);
    if (!name.startsWith(prefix) || !Number.isInteger(pid) || alive(pid)) continue;
    rmSync(join(ramDisk, name), { recursive: true, force: true });
    rmSync(join(linkDir, name), { force: true });
  }
}

/**
 * A folder on /dev/shm for TMPDIR, when it is a tmpfs with room and the person has not chosen a TMPDIR themselves.
 * The server's process tests write whole PGlite clusters (about 1,400 files each), 40 MB backups and the
 * configurations of FreeRADIUS, slapd and Apache into os.tmpdir(). On the 2-core CI machine's ext4 (mounted with
 * `discard`) making a file cost the kernel about 1 ms of CPU, on tmpfs 0.04 ms. Back to back: the six backup, restore
 * and data-folder files 95 and 111 CPU-seconds with /tmp, 76 and 84 with a tmpfs; the whole Vitest suite 669 and 630
 * (its server files 435 and 407 in their workers). What the tests check of files (modes, renames, locks) holds on
 * tmpfs as on ext4. The caller removes it once the suite has passed; a failed run's stays until the next run's start.
 *
 * TMPDIR is a link beside the usual /tmp to the folder, not the folder itself: FreeRADIUS opens a log file whose
 * path starts with /dev/ as a device, never creating it (its exfile), and a Unix socket's path must stay short.
 */
export function testTempDir(env: NodeJS.ProcessEnv = process.env, linkDir = tmpdir()): TestTempDir | undefined {
  if (process.platform !== "linux" || env.TMPDIR || !existsSync(ramDisk)) return undefined;
  const disk = statfsSync(ramDisk);
  if (disk.type !== tmpfsMagic || disk.bavail * disk.bsize < neededFreeBytes) return undefined;
  removeAbandoned(linkDir);
  // A name no other account can have taken first (mkdtemp), which still says whose run it is.
  const folder = mkdtempSync(join(ramDisk, `${prefix}${process.pid}-`));
  const link = join(linkDir, basename(folder));
  // As /tmp: a program the tests start as another user (slapd, FreeRADIUS) reaches its own folder in it.
  chmodSync(folder, 0o1777);
  symlinkSync(folder, link);
  return {
    env: { TMPDIR: link },
    remove: () => {
      rmSync(folder, { recursive: true, force: true });
      rmSync(link, { force: true });
    },
  };
}
