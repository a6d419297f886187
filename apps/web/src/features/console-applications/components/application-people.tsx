import type { AdminApplicationDetail, ApplicationPeoplePage, BulkGrantReport } from "@kpi-id/contracts";
import { Search } from "lucide-react";
import { type ChangeEvent, useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { personColumns } from "@/features/console-people/index.ts";
import { type ConsoleColumn, DataTable, Section, useAppTitle } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { useApplicationAccess, useApplicationPeople, useBulkGrant } from "../api/applications-api.ts";
import { areaClass } from "./application-settings.tsx";

type Person = ApplicationPeoplePage["people"][number];
const typingPauseMs = 250;
// The server's page of people with access (accessPageSize in people-with-access.ts).
const accessPageRows = 50;

/**
 * About how many rows a page of who has access will bring, for its placeholder: the rules' count of people with
 * access (the screen has it before it shows, answers-first.tsx) less the pages before, at most a page. The list also
 * names disabled people with a grant, whom the count leaves out, so a page may hold a few more. A search, or a count
 * not in, gives no guess: one row, as the list's "none" takes.
 */
export function expectedAccessRows(people: number | undefined, q: string, page: number): number {
  if (people === undefined || q) return 1;
  return Math.min(accessPageRows, Math.max(1, people - (page - 1) * accessPageRows));
}

/**
 * The placeholder's row count for one read (`read` names its search and page), fixed from when the placeholder is
 * first seen until the rows are in. A count of people that came after the placeholder showed grew it from one row
 * to up to a page and pushed the paging buttons down under a tap. Unseen (`seen` false: the screen holds the
 * section back, answers-first.tsx), it follows `expected`, which is better once the count is in.
 */
function useSteadyPlaceholderRows(expected: number, pending: boolean, read: string, seen: boolean): number {
  // State set while rendering: React's pattern for what a render keeps from the ones before it. A ref written
  // while rendering would also keep what a render React threw away had written.
  const [fixed, setFixed] = useState<{ read: string; rows: number } | undefined>(undefined);
  if (!pending || !seen) {
    if (fixed !== undefined) setFixed(undefined);
    return pending ? expected : 0;
  }
  if (fixed?.read !== read) {
    setFixed({ read, rows: expected });
    return expected;
  }
  return fixed.rows;
}

function usePeopleColumns(): ConsoleColumn<Person>[] {
  const { t } = useTranslation(["admin", "admin-apps"]);
  const language = useLanguage();
  return useMemo(
    () =>
      personColumns<Person>(t, language, [
        {
          id: "via",
          header: t("admin-apps:people.via"),
          cell: ({ row }) => t(`admin-apps:people.vias.${row.original.via}`),
        },
      ]),
    [t, language],
  );
}

/**
 * Who may use the application: search and pages in the URL (?q=&page=), so the view can be shared. `held`: the
 * screen holds the section back, unseen, for now (answers-first.tsx).
 */
export function PeopleSection({ application, held }: { application: AdminApplicationDetail; held: boolean }) {
  const { t } = useTranslation(["admin", "admin-apps"]);
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const page = Math.max(1, Number(params.get("page")) || 1);
  const [typed, setTyped] = useState(q);
  const people = useApplicationPeople(application.id, q, page);
  const access = useApplicationAccess(application.id, { asked: true });
  const columns = usePeopleColumns();
  const searchId = useId();
  const placeholderRows = useSteadyPlaceholderRows(
    expectedAccessRows(access.data?.people, q, page),
    people.isPending,
    `${q}|${page}`,
    !held,
  );
  const go = (next: { q: string; page: number }) => {
    const search = new URLSearchParams();
    if (next.q) search.set("q", next.q);
    if (next.page > 1) search.set("page", String(next.page));
    setParams(search, { replace: true });
  };
  useEffect(() => {
    if (typed === q) return;
    const timer = setTimeout(() => go({ q: typed, page: 1 }), typingPauseMs);
    return () => clearTimeout(timer);
  });
  return (
    <Section title={t("admin-apps:people.title")} testId="application-people">
      <div className="flex flex-col gap-1">
        <Label htmlFor={searchId}>{t("admin-apps:people.search")}</Label>
        <div className="relative">
          <Search className="absolute top-3 left-3 size-4 text-muted-foreground" aria-hidden />
          <Input
            id={searchId}
            type="search"
            className="pl-9"
            value={typed}
            placeholder={t("admin-apps:people.searchHint")}
            onChange={(event) => setTyped(event.target.value)}
            data-testid="access-search"
          />
        </div>
      </div>
      <DataTable
        columns={columns}
        rows={people.data?.people ?? []}
        label={t("admin-apps:people.title")}
        empty={t("admin-apps:people.none")}
        testId="access-table"
        loadingRows={placeholderRows}
      />
      <div className="flex items-center justify-between gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => go({ q: typed, page: page - 1 })}>
          {t("admin:pages.previous")}
        </Button>
        <span className="text-sm text-muted-foreground">{t("admin:pages.page", { page })}</span>
        <Button
          variant="outline"
          size="sm"
          disabled={!people.data?.hasMore}
          onClick={() => go({ q: typed, page: page + 1 })}
        >
          {t("admin:pages.next")}
        </Button>
      </div>
    </Section>
  );
}

function Report({ report }: { report: BulkGrantReport }) {
  const { t } = useTranslation("admin-apps");
  const columns = useMemo<ConsoleColumn<BulkGrantReport["lines"][number]>[]>(
    () => [
      { accessorKey: "line", header: t("admin-apps:bulk.columns.line") },
      { accessorKey: "value", header: t("admin-apps:bulk.columns.value") },
      {
        id: "outcome",
        header: t("admin-apps:bulk.columns.outcome"),
        cell: ({ row }) =>
          `${t(`admin-apps:bulk.outcomes.${row.original.outcome}`)}${row.original.disabled ? ` ${t("admin-apps:bulk.disabled")}` : ""}`,
      },
    ],
    [t],
  );
  return (
    <div className="flex flex-col gap-2" data-testid="bulk-report">
      <h4 className="text-sm font-semibold">{t("admin-apps:bulk.report")}</h4>
      <p className="text-sm" aria-live="polite">
        {t("admin-apps:bulk.counts", { granted: report.granted, already: report.alreadyHad, refused: report.refused })}
      </p>
      <DataTable
        columns={columns}
        rows={report.lines}
        label={t("admin-apps:bulk.report")}
        empty={t("admin-apps:bulk.empty")}
      />
    </div>
  );
}

/** Bulk grant: a pasted list or a CSV file, a confirmation naming how many lines, then each line's outcome. */
export function BulkGrantSection({ application }: { application: AdminApplicationDetail }) {
  const { t } = useTranslation("admin-apps");
  const appTitle = useAppTitle();
  const describeError = useErrorMessage();
  const grant = useBulkGrant(application.id);
  const [list, setList] = useState("");
  const ids = { list: useId(), file: useId(), hint: useId() };
  const count = list.split(/\r?\n/).filter((line) => line.trim()).length;
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) setList(await file.text());
  };
  return (
    <Section title={t("admin-apps:bulk.title")} testId="application-bulk">
      <p id={ids.hint} className="text-sm text-muted-foreground">
        {t("admin-apps:bulk.hint")}
      </p>
      <div className="flex flex-col gap-1">
        <Label htmlFor={ids.list}>{t("admin-apps:bulk.list")}</Label>
        <textarea
          id={ids.list}
          className={areaClass}
          rows={6}
          value={list}
          aria-describedby={ids.hint}
          onChange={(event) => setList(event.target.value)}
          spellCheck={false}
          data-testid="bulk-list"
        />
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={ids.file}>{t("admin-apps:bulk.file")}</Label>
        <input
          id={ids.file}
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          onChange={readFile}
          className="text-sm file:mr-3 file:rounded-md file:border file:border-border file:bg-white file:px-3 file:py-2 file:text-sm"
        />
      </div>
      {grant.isError ? (
        <p role="alert" className="text-sm text-destructive-strong">
          {describeError(grant.error, "admin:failed").message}
        </p>
      ) : null}
      <ConfirmButton
        className="self-start"
        disabled={count === 0 || grant.isPending}
        question={t("admin-apps:bulk.question", { app: appTitle(application), count })}
        consequence={t("admin-apps:bulk.consequence")}
        confirmLabel={t("admin-apps:bulk.grant")}
        onConfirm={() => grant.mutate({ list })}
        data-testid="bulk-grant"
      >
        {t("admin-apps:bulk.grant")}
      </ConfirmButton>
      {grant.data ? <Report report={grant.data} /> : null}
    </Section>
  );
}
