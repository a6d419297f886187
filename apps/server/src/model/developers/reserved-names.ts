import type { Db } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/errors.ts";
import { loadOnce } from "../../platform/load-once.ts";
import { titlesOfApplicationsExcept } from "../apps/for-developers.ts";

/**
 * The sign-in service's own names: no application registered on the developers' page may pose as KPI ID itself,
 * whatever the operators have named their applications.
 */
const serviceNames = ["KPI ID", "КПІ ID", "КПІ АйДі"];

/** Characters nobody sees: controls, formats, every default-ignorable code point and the Hangul fillers (letters). */
const invisibleCharacters = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u115F\u1160\u3164\uFFA0]/gu;
/** Spacing, punctuation, symbols, marks and invisible characters: none tells two names apart to a reader. */
const ignoredCharacters = new RegExp(`${invisibleCharacters.source}|[\\p{P}\\p{S}\\p{Z}\\p{M}\\s]`, "gu");
/** Turkish İ stays İ in upper case and lower-cases to i + dot, escaping the I → l prototype; it reads as I. */
const dottedCapitalI = /\u0130/g;

/**
 * A name's skeleton after Unicode TR 39: two names with the same skeleton look alike. NFKC folds compatibility
 * forms (ｋ, ℂ); unhomoglyph maps each confusable to its prototype with the data of Unicode's confusables.txt,
 * once over the upper case (Cyrillic К, Р, І, М, Т, Н, В become K, P, I, M, T, H, B) and once over the lower case
 * (Cyrillic а, е, о, р, с, х, у, і become a, e, o, p, c, x, y, i); then case, spacing, punctuation and accents go.
 * Invisible characters go first, so that none sits between the letters a confusable spans; dotless ı upper-cases to I.
 *
 * Loaded with the first title checked: unhomoglyph's table of confusables (6,000 entries: 1.1 MiB of heap once loaded)
 * is needed only when a developer names an application, so an instance holds it only from then (issue 63).
 */
export const loadNameSkeleton = loadOnce(async () => {
  const { default: unhomoglyph } = await import("unhomoglyph");
  return (name: string): string => {
    const visible = name.normalize("NFKC").replace(invisibleCharacters, "");
    const upper = unhomoglyph(visible.toUpperCase().replace(dottedCapitalI, "I"));
    return unhomoglyph(upper.toLowerCase()).normalize("NFD").replace(ignoredCharacters, "");
  };
});

/**
 * The service's own names read anywhere in a title ("KPI ID Login", "Вхід КПІ ID") pose as the sign-in page itself.
 * Only these: an official application's title inside a longer one ("Електронний кампус — розклад") may be honest.
 */
const loadServiceSkeletons = loadOnce(async () => {
  const nameSkeleton = await loadNameSkeleton();
  return serviceNames.map(nameSkeleton).filter((skeleton) => skeleton.length >= 5);
});

/**
 * The titles (both languages) of every official application: one an operator made, i.e. not registered on the
 * developers' page (those are named `dev-…` at registration and have owners), plus the service's own names.
 */
async function reservedSkeletons(db: Db, nameSkeleton: (name: string) => string): Promise<Set<string>> {
  // The operators' applications: neither registered on the developers' page (named dev-…) nor owned by anyone.
  const official = await titlesOfApplicationsExcept(
    db,
    db.selectFrom("application_owners").select("application_id"),
    "dev-",
  );
  const names = [...serviceNames, ...official];
  return new Set(names.map(nameSkeleton).filter(Boolean));
}

/** 400 developer.reserved_name when a title reads as an official application's name, or holds the service's. */
export async function checkNotReserved(db: Db, titles: Record<string, string | undefined>): Promise<void> {
  const given = Object.entries(titles).filter((entry): entry is [string, string] => !!entry[1]);
  if (given.length === 0) return;
  const nameSkeleton = await loadNameSkeleton();
  const serviceSkeletons = await loadServiceSkeletons();
  const reserved = await reservedSkeletons(db, nameSkeleton);
  for (const [field, title] of given) {
    const skeleton = nameSkeleton(title);
    if (reserved.has(skeleton) || serviceSkeletons.some((service) => skeleton.includes(service))) {
      throw new AppError("developer.reserved_name", { details: [{ path: `body.${field}`, message: "reserved" }] });
    }
  }
}
