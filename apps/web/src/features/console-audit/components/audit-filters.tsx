import { type AuditFilters, auditEventTypes } from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useApplications, useAppTitle, useEventLabel } from "@/features/console-shell/index.ts";
import { auditSearch } from "../api/records-api.ts";

const selectClass =
  "h-10 rounded-md border border-border bg-white px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";
const textFilters = ["person", "actor", "ip"] as const;
const filterNames = ["person", "actor", "type", "result", "app", "from", "to", "ip"] as const;
type FilterName = (typeof filterNames)[number];
type Draft = Record<FilterName, string>;

/** The filters live in the URL, so a filtered view of the log can be shared or bookmarked. */
export function useAuditFilters(): [AuditFilters, (next: Draft) => void] {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(
    filterNames.map((name) => [name, params.get(name) ?? undefined]).filter(([, value]) => value),
  ) as AuditFilters;
  const update = (next: Draft) => setParams(auditSearch(next as AuditFilters), { replace: true });
  return [filters, update];
}

export function AuditFilterForm({ filters, onApply }: { filters: AuditFilters; onApply: (next: Draft) => void }) {
  const { t } = useTranslation("admin-records");
  const appTitle = useAppTitle();
  const eventLabel = useEventLabel();
  const applications = useApplications();
  const baseId = useId();
  const initial = Object.fromEntries(filterNames.map((name) => [name, filters[name] ?? ""])) as Draft;
  const [draft, setDraft] = useState<Draft>(initial);
  const set = (name: FilterName, value: string) => setDraft({ ...draft, [name]: value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const field = (name: FilterName) => `${baseId}-${name}`;
  const types = [...auditEventTypes].sort((a, b) => eventLabel(a).localeCompare(eventLabel(b)));
  return (
    <form
      onSubmit={submit}
      aria-label={t("admin-records:audit.filters")}
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
    >
      {textFilters.map((name) => (
        <div key={name} className="flex flex-col gap-1">
          <Label htmlFor={field(name)}>{t(`admin-records:audit.${name}`)}</Label>
          <Input
            id={field(name)}
            value={draft[name]}
            onChange={(event) => set(name, event.target.value)}
            data-testid={`audit-${name}`}
          />
        </div>
      ))}
      <div className="flex flex-col gap-1">
        <Label htmlFor={field("type")}>{t("admin-records:audit.type")}</Label>
        <select
          id={field("type")}
          className={selectClass}
          value={draft.type}
          onChange={(event) => set("type", event.target.value)}
          data-testid="audit-type"
        >
          <option value="">{t("admin-records:audit.anyType")}</option>
          {types.map((type) => (
            <option key={type} value={type}>
              {eventLabel(type)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={field("result")}>{t("admin-records:audit.result")}</Label>
        <select
          id={field("result")}
          className={selectClass}
          value={draft.result}
          onChange={(event) => set("result", event.target.value)}
          data-testid="audit-result"
        >
          <option value="">{t("admin-records:audit.anyResult")}</option>
          <option value="success">{t("admin-records:results.success")}</option>
          <option value="failure">{t("admin-records:results.failure")}</option>
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <Label htmlFor={field("app")}>{t("admin-records:audit.application")}</Label>
        <select
          id={field("app")}
          className={selectClass}
          value={draft.app}
          onChange={(event) => set("app", event.target.value)}
        >
          <option value="">{t("admin-records:audit.anyApplication")}</option>
          {applications.data?.map((application) => (
            <option key={application.id} value={application.id}>
              {appTitle(application)}
            </option>
          ))}
        </select>
      </div>
      {(["from", "to"] as const).map((name) => (
        <div key={name} className="flex flex-col gap-1">
          <Label htmlFor={field(name)}>{t(`admin-records:audit.${name}`)}</Label>
          <Input
            id={field(name)}
            type="date"
            value={draft[name]}
            onChange={(event) => set(name, event.target.value)}
            data-testid={`audit-${name}`}
          />
        </div>
      ))}
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-4">
        <Button type="submit" data-testid="audit-apply">
          {t("admin-records:audit.apply")}
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            const empty = Object.fromEntries(filterNames.map((name) => [name, ""])) as Draft;
            setDraft(empty);
            onApply(empty);
          }}
        >
          {t("admin-records:audit.clear")}
        </Button>
      </div>
    </form>
  );
}
