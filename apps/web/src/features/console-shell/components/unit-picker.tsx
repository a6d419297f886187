import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Input } from "@/components/ui/input.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useLanguage } from "@/lib/use-language.ts";
import { type ConsoleUnit, useUnits } from "../api/units-api.ts";

/** How many units the picker lists at once: the tree has hundreds, the search narrows them. */
const shownAtOnce = 6;

/** A unit's name in the page's language (English falls back to the Ukrainian one the tree always has). */
export function useUnitName() {
  const language = useLanguage();
  return (unit: { nameUk: string; nameEn: string }) => (language === "en" && unit.nameEn ? unit.nameEn : unit.nameUk);
}

/** Units whose code or name (in either language) holds every typed word, codes that begin with the text first. */
export function matchingUnits(units: readonly ConsoleUnit[], query: string): ConsoleUnit[] {
  const words = query.toLocaleLowerCase("uk").split(/\s+/).filter(Boolean);
  const found = units.filter((unit) => {
    const haystack = `${unit.code} ${unit.nameUk} ${unit.nameEn}`.toLocaleLowerCase("uk");
    return words.every((word) => haystack.includes(word));
  });
  const first = words[0] ?? "";
  const codeFirst = (unit: ConsoleUnit) => (unit.code.toLocaleLowerCase("uk").startsWith(first) ? 0 : 1);
  return found.sort((a, b) => codeFirst(a) - codeFirst(b) || a.code.localeCompare(b.code));
}

/**
 * Choosing a unit within the operator's reach: a search over code and name, and the matches as radio buttons (a
 * group a keyboard and a screen reader know, not a hand-made list box). The server lists only units in reach, so a
 * unit admin is never offered a unit the server would refuse. `none` offers "no unit" first (an admin's choice:
 * central IT's application, a rule for the whole university).
 */
export function UnitPicker({
  label,
  value,
  onChange,
  none,
  testId,
}: {
  label: string;
  /** The chosen unit's id; "" for none. */
  value: string;
  onChange: (unit: ConsoleUnit | undefined) => void;
  /** The words of the "no unit" choice, when there may be none. */
  none?: string;
  testId: string;
}) {
  const { t } = useTranslation("admin");
  const units = useUnits();
  const unitName = useUnitName();
  const [query, setQuery] = useState("");
  const name = useId();
  const searchId = `${name}-search`;
  const all = units.data ?? [];
  const chosen = all.find((unit) => unit.id === value);
  const matches = matchingUnits(all, query);
  // The chosen unit stays in view whatever the search shows, so the choice is never hidden from the person.
  const shown = [
    ...(chosen && !matches.slice(0, shownAtOnce).includes(chosen) ? [chosen] : []),
    ...matches.slice(0, shownAtOnce),
  ];
  const more = matches.length - matches.slice(0, shownAtOnce).length;
  return (
    <fieldset className="flex min-w-0 flex-col gap-2" data-testid={testId}>
      <legend className="mb-1 text-sm font-medium text-foreground">{label}</legend>
      <label htmlFor={searchId} className="text-xs text-muted-foreground">
        {t("admin:units.search")}
      </label>
      <Input
        id={searchId}
        type="search"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        autoComplete="off"
        data-testid={`${testId}-search`}
      />
      {units.isPending ? <Skeleton className="h-16 w-full" /> : null}
      <div className="flex flex-col gap-1" data-testid={`${testId}-options`}>
        {none !== undefined ? (
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name={name}
              className="mt-0.5 size-4 shrink-0 accent-primary"
              checked={value === ""}
              onChange={() => onChange(undefined)}
            />
            <span>{none}</span>
          </label>
        ) : null}
        {shown.map((unit) => (
          <label key={unit.id} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={unit.id}
              className="mt-0.5 size-4 shrink-0 accent-primary"
              checked={unit.id === value}
              onChange={() => onChange(unit)}
            />
            <span className="min-w-0 break-words">
              <span className="font-medium">{unit.code}</span>{" "}
              <span className="text-muted-foreground">{unitName(unit)}</span>
            </span>
          </label>
        ))}
      </div>
      {units.data && matches.length === 0 ? (
        <p className="text-sm text-muted-foreground" data-testid={`${testId}-nothing`}>
          {t("admin:units.nothing")}
        </p>
      ) : null}
      {more > 0 ? <p className="text-xs text-muted-foreground">{t("admin:units.more", { count: more })}</p> : null}
    </fieldset>
  );
}
