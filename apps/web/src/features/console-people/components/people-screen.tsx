import type { PersonSummary } from "@kpi-id/contracts";
import { Search } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { type ConsoleColumn, DataTable, useApplications, useCan } from "@/features/console-shell/index.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { type PeopleFilters, usePeople } from "../api/people-api.ts";
import { PeopleCount } from "./people-count.tsx";
import { personColumns } from "./person-columns.tsx";

const selectClass =
  "h-10 rounded-md border border-border bg-white px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";
// A search per pause in typing, not per keystroke.
const typingPauseMs = 250;
// The server's page of people (peoplePageSize in people-search.ts). The list's first answer, unfiltered, fills it on
// any campus, so its placeholder takes as many rows; a filtered link that finds fewer moves the buttons up, from
// below the fold, not down under a finger.
const peoplePageRows = 25;

/** The filters live in the URL (?q=&status=&app=&page=), so a view can be shared or bookmarked. */
function useFilters(): [PeopleFilters, (changes: Partial<PeopleFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const status = params.get("status");
  const filters: PeopleFilters = {
    q: params.get("q") ?? "",
    status: status === "active" || status === "disabled" ? status : "",
    app: params.get("app") ?? "",
    page: Math.max(1, Number(params.get("page")) || 1),
  };
  const update = (changes: Partial<PeopleFilters>) => {
    const next = { ...filters, page: 1, ...changes };
    const search = new URLSearchParams();
    if (next.q) search.set("q", next.q);
    if (next.status) search.set("status", next.status);
    if (next.app) search.set("app", next.app);
    if (next.page > 1) search.set("page", String(next.page));
    setParams(search, { replace: true });
  };
  return [filters, update];
}

/** The person's units by code, each with its name in the page's language for a pointer or a screen reader. */
function PersonUnits({ units, language }: { units: NonNullable<PersonSummary["units"]>; language: string }) {
  if (units.length === 0) return "—";
  return (
    <span className="flex flex-col" data-testid="person-units">
      {units.map((unit) => {
        const name = language === "en" && unit.nameEn ? unit.nameEn : unit.nameUk;
        return (
          <span key={unit.code} title={name} className="whitespace-nowrap">
            {unit.code}
            <span className="sr-only"> ({name})</span>
          </span>
        );
      })}
    </span>
  );
}

function usePeopleColumns(): ConsoleColumn<PersonSummary>[] {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  return useMemo(
    () =>
      personColumns<PersonSummary>(
        t,
        language,
        [
          {
            id: "ids",
            header: t("admin:people.columns.ids"),
            cell: ({ row }) => [row.original.studentId, row.original.employeeId].filter(Boolean).join(", ") || "—",
          },
        ],
        // The unit beside the name: a faculty's admin tells their people apart by it, and on a phone it was past
        // the sideways scroll (issue 79).
        [
          {
            id: "unit",
            header: t("admin:people.columns.unit"),
            cell: ({ row }) => <PersonUnits units={row.original.units ?? []} language={language} />,
          },
        ],
      ),
    [t, language],
  );
}

/** People: search as you type, filter by status and application, page through. */
export function PeopleScreen() {
  const { t } = useTranslation("admin");
  const [filters, update] = useFilters();
  const [typed, setTyped] = useState(filters.q);
  const ids = { search: useId(), status: useId(), app: useId() };
  const canSeeApps = useCan("apps.view");
  const applications = useApplications(canSeeApps);
  const people = usePeople(filters);
  const columns = usePeopleColumns();

  useEffect(() => {
    if (typed === filters.q) return;
    const timer = setTimeout(() => update({ q: typed }), typingPauseMs);
    return () => clearTimeout(timer);
  });

  return (
    <section aria-labelledby="people-heading" className="flex flex-col gap-4">
      <h2 id="people-heading" className="text-lg font-semibold">
        {t("admin:people.title")}
      </h2>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex flex-1 flex-col gap-1">
          <Label htmlFor={ids.search}>{t("admin:people.search")}</Label>
          <div className="relative">
            <Search className="absolute top-3 left-3 size-4 text-muted-foreground" aria-hidden />
            <Input
              id={ids.search}
              type="search"
              className="pl-9"
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              placeholder={t("admin:people.searchHint")}
              data-testid="people-search"
            />
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor={ids.status}>{t("admin:people.status")}</Label>
          <select
            id={ids.status}
            className={selectClass}
            value={filters.status}
            onChange={(event) => update({ status: event.target.value as PeopleFilters["status"] })}
          >
            <option value="">{t("admin:people.anyStatus")}</option>
            <option value="active">{t("admin:status.active")}</option>
            <option value="disabled">{t("admin:status.disabled")}</option>
          </select>
        </div>
        {canSeeApps ? (
          <div className="flex flex-col gap-1">
            <Label htmlFor={ids.app}>{t("admin:people.application")}</Label>
            <select
              id={ids.app}
              className={selectClass}
              value={filters.app}
              onChange={(event) => update({ app: event.target.value })}
            >
              <option value="">{t("admin:people.anyApplication")}</option>
              {applications.data?.map((application) => (
                <option key={application.id} value={application.id}>
                  {application.title}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      <PeopleCount page={people.data} pending={people.isPending} error={people.error} />
      {/* A first read that failed has no rows, and an empty table would say that nobody matches. */}
      {people.isError && !people.data ? null : (
        <DataTable
          columns={columns}
          rows={people.data?.people ?? []}
          label={t("admin:people.title")}
          empty={t("admin:people.none")}
          testId="people-table"
          loadingRows={people.isPending ? peoplePageRows : 0}
        />
      )}
      <div className="flex items-center justify-between gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={filters.page <= 1}
          onClick={() => update({ q: typed, page: filters.page - 1 })}
        >
          {t("admin:pages.previous")}
        </Button>
        <span className="text-sm text-muted-foreground">{t("admin:pages.page", { page: filters.page })}</span>
        <Button
          variant="outline"
          size="sm"
          disabled={!people.data?.hasMore}
          onClick={() => update({ q: typed, page: filters.page + 1 })}
        >
          {t("admin:pages.next")}
        </Button>
      </div>
    </section>
  );
}
