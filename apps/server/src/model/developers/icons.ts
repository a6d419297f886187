import { createHash } from "node:crypto";
import { type IconUpload, iconMaxBytes, iconPathPattern } from "@kpi-id/contracts";
import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { iconUrlsStartingWith } from "../apps/for-developers.ts";

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Icons an application keeps besides the ones in use, so uploading again and again fills no disk. */
const keptUnusedIcons = 5;

function refuse(problem: string): never {
  throw new AppError("developer.invalid_icon", { details: [{ path: "body.data", message: problem }] });
}

/** The file's bytes when they are an icon KPI ID serves: a PNG, or an SVG that runs and fetches nothing. */
async function iconBytes(upload: IconUpload): Promise<Buffer> {
  const bytes = Buffer.from(upload.data, "base64");
  if (bytes.length === 0) refuse("empty");
  if (bytes.length > iconMaxBytes) refuse("too large");
  if (upload.contentType === "image/png") {
    if (!bytes.subarray(0, 8).equals(pngSignature)) refuse("not a PNG");
    return bytes;
  }
  // The XML parser is loaded with the first SVG upload, not at start-up (startup-modules.test.ts).
  const { svgProblem } = await import("./svg-check.ts");
  const problem = svgProblem(bytes.toString("utf8"));
  if (problem) refuse(problem);
  return bytes;
}

/** Where KPI ID serves the icon with these bytes. */
export function iconPath(sha256: string, contentType: IconUpload["contentType"]): string {
  return `/api/developers/icons/${sha256}.${contentType === "image/png" ? "png" : "svg"}`;
}

/**
 * Stores an uploaded icon for the application and answers its address; the application shows it only once an edit
 * names it (at once while testing, after approval when live). Unused older uploads beyond a few are dropped.
 */
export async function storeIcon(db: Db, applicationId: string, upload: IconUpload): Promise<string> {
  const bytes = await iconBytes(upload);
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  await db
    .insertInto("application_icons")
    .values({ sha256, application_id: applicationId, content_type: upload.contentType, bytes })
    .onConflict((conflict) => conflict.column("sha256").doNothing())
    .execute();
  await dropUnusedIcons(db, applicationId);
  return iconPath(sha256, upload.contentType);
}

async function dropUnusedIcons(db: Db, applicationId: string): Promise<void> {
  const icons = await db
    .selectFrom("application_icons")
    .select(["sha256", "content_type"])
    .where("application_id", "=", applicationId)
    .orderBy("created_at", "desc")
    .execute();
  if (icons.length <= keptUnusedIcons) return;
  const inUse = await iconUrlsStartingWith(db, "/api/developers/icons/");
  const pending = await db
    .selectFrom("application_changes")
    .select("changes")
    .where("status", "=", "pending")
    .execute();
  const used = new Set([...inUse, ...pending.map((row) => String(row.changes.iconUrl))]);
  const unused = icons.filter((icon) => !used.has(iconPath(icon.sha256, icon.content_type)));
  const dropped = unused.slice(keptUnusedIcons).map((icon) => icon.sha256);
  if (dropped.length) await db.deleteFrom("application_icons").where("sha256", "in", dropped).execute();
}

/** 400 developer.invalid_icon unless the address is one of KPI ID's stored icons (never another host's). */
export async function checkStoredIcon(db: Db, iconUrl: string): Promise<void> {
  if (!iconPathPattern.test(iconUrl)) refuse("not an icon KPI ID stores");
  const sha256 = iconUrl.slice("/api/developers/icons/".length, -4);
  const row = await db.selectFrom("application_icons").select("sha256").where("sha256", "=", sha256).executeTakeFirst();
  if (!row) refuse("no such icon");
}

/** The stored icon for its served file name, or undefined. */
export async function storedIcon(db: Db, file: string) {
  const [sha256, extension] = file.split(".");
  const row = await db
    .selectFrom("application_icons")
    .select(["content_type", "bytes"])
    .where("sha256", "=", sha256 ?? "")
    .executeTakeFirst();
  if (!row || (extension === "png") !== (row.content_type === "image/png")) return undefined;
  return row;
}

/** What the pages show: KPI ID's own icons only; an address on the owner's host from before issue 56 is not shown. */
export function shownIcon(iconUrl: string): string {
  return iconPathPattern.test(iconUrl) ? iconUrl : "";
}
