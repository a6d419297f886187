// npm test's Vitest suite keeps its temporary files in memory (scripts/test-tmpdir.ts, issue 75): through a link
// whose path is an ordinary one, gone once the suite is done, and never over a TMPDIR the person chose.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testTempDir } from "../../../../scripts/test-tmpdir.ts";

const linkDir = mkdtempSync(join(tmpdir(), "kpi-id-tmpdir-links-"));
afterAll(() => rmSync(linkDir, { recursive: true, force: true }));

const hasRamDisk = process.platform === "linux" && existsSync("/dev/shm") && statfsSync("/dev/shm").type === 0x01021994;

describe("the Vitest suite's TMPDIR", () => {
  it("is left alone when the person set one", () => {
    expect(testTempDir({ TMPDIR: "/var/tmp" }, linkDir)).toBeUndefined();
  });

  it("links from the usual temporary folder to a folder on the RAM disk, and is gone once removed", () => {
    const made = testTempDir({}, linkDir);
    if (!hasRamDisk) {
      // No tmpfs at /dev/shm (not Linux, or a machine without one): the suite keeps the usual folder.
      expect(made).toBeUndefined();
      return;
    }
    const link = made?.env.TMPDIR ?? "";
    expect(link.startsWith(`${linkDir}/`)).toBe(true);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    const folder = realpathSync(link);
    expect(folder.startsWith("/dev/shm/")).toBe(true);
    // As /tmp: sticky and open to the other users the tests start programs as.
    expect(lstatSync(folder).mode & 0o7777).toBe(0o1777);
    made?.remove();
    expect(existsSync(folder)).toBe(false);
    expect(readdirSync(linkDir)).toEqual([]);
  });

  it("clears what a run killed before its end left behind", () => {
    if (!hasRamDisk) return;
    // No process has this id (above Linux's largest).
    const abandoned = "kpi-id-test-tmp-4194305-AbCdEf";
    mkdirSync(join("/dev/shm", abandoned));
    const made = testTempDir({}, linkDir);
    expect(existsSync(join("/dev/shm", abandoned))).toBe(false);
    made?.remove();
  });
});
