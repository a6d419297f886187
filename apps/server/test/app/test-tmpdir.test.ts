// npm test's Vitest suite keeps its temporary files in memory (scripts/test-tmpdir.ts, issue 75): through a link
// whose path is an ordinary one, gone once the suite is done, and never over a TMPDIR the person chose.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ramDiskUsable, testTempDir } from "../../../../scripts/test-tmpdir.ts";

const linkDir = mkdtempSync(join(tmpdir(), "kpi-id-tmpdir-links-"));
// The tests' own folder on the RAM disk stands for /dev/shm, so that they never touch a running suite's folder.
const ramDisk = existsSync("/dev/shm") ? mkdtempSync("/dev/shm/kpi-id-tmpdir-test-") : "/nonexistent-ram-disk";
afterAll(() => {
  rmSync(linkDir, { recursive: true, force: true });
  if (ramDisk.startsWith("/dev/shm/")) rmSync(ramDisk, { recursive: true, force: true });
});

/** A folder on the RAM disk as a run with this pid would have left it, with its link. */
function leftBy(pid: number): string {
  const name = `kpi-id-test-tmp-${pid}-AbCdEf`;
  const folder = join(ramDisk, name);
  mkdirSync(folder);
  symlinkSync(folder, join(linkDir, name));
  return folder;
}

describe("the Vitest suite's TMPDIR", () => {
  it("is left alone when the person set one", () => {
    expect(testTempDir({ TMPDIR: "/var/tmp" }, linkDir, ramDisk)).toBeUndefined();
  });

  it("links from the usual temporary folder to a folder on the RAM disk, and is gone once removed", () => {
    const made = testTempDir({}, linkDir, ramDisk);
    if (!ramDiskUsable(ramDisk)) {
      // No tmpfs at /dev/shm with room (not Linux, a container's small one): the suite keeps the usual folder.
      expect(made).toBeUndefined();
      return;
    }
    const link = made?.env.TMPDIR ?? "";
    try {
      expect(link.startsWith(`${linkDir}/`)).toBe(true);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      const folder = realpathSync(link);
      expect(folder.startsWith(`${ramDisk}/`)).toBe(true);
      // Others pass through to the folders the tests open to them (Apache as www-data), but cannot list or write.
      expect(lstatSync(folder).mode & 0o7777).toBe(0o711);
      made?.remove();
      expect(existsSync(folder)).toBe(false);
      expect(readdirSync(linkDir)).toEqual([]);
    } finally {
      made?.remove();
    }
  });

  it("clears what a killed run left behind, and keeps a running one's", () => {
    if (!ramDiskUsable(ramDisk)) {
      expect(testTempDir({}, linkDir, ramDisk)).toBeUndefined();
      return;
    }
    // No process has the first id (above Linux's largest); this process is the second.
    const abandoned = leftBy(4194305);
    const running = leftBy(process.pid);
    const made = testTempDir({}, linkDir, ramDisk);
    made?.remove();
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(running)).toBe(true);
    expect(readdirSync(linkDir)).toEqual([`kpi-id-test-tmp-${process.pid}-AbCdEf`]);
  });
});
