import {
  type AccessRuleView,
  type AdminApplicationDetail,
  accessRuleAffiliations,
  accessRuleStatuses,
  type NewAccessRuleRequest,
} from "@kpi-id/contracts";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import { Input } from "@/components/ui/input.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { ReadFailed, Section, UnitPicker, useAppTitle } from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";
import { useLanguage } from "@/lib/use-language.ts";
import {
  useAddRule,
  useApplicationAccess,
  useExclude,
  useLiftExclusion,
  useRemoveRule,
} from "../api/applications-api.ts";
import { useReachesEverywhere } from "./application-unit.tsx";

export const selectClass =
  "h-10 rounded-md border border-border bg-white px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

function useDescribeRule() {
  const { t } = useTranslation("admin-apps");
  const language = useLanguage();
  return (rule: AccessRuleView) => {
    // The unit's name in the screen's language (the Ukrainian one when it has no English one).
    const name = language === "en" && rule.unitNameEn ? rule.unitNameEn : rule.unitName;
    const unit = rule.unitCode ? `${rule.unitCode}${name ? ` (${name})` : ""}` : undefined;
    return t("admin-apps:rules.describe", {
      affiliation: rule.affiliation
        ? t(`admin-apps:rules.affiliations.${rule.affiliation}`)
        : t("admin-apps:rules.any"),
      unit: unit
        ? t(rule.includeSubunits ? "admin-apps:rules.withSubunits" : "admin-apps:rules.unitOnly", { unit })
        : t("admin-apps:rules.anyUnit"),
      status: rule.status ? t(`admin-apps:rules.statuses.${rule.status}`) : t("admin-apps:rules.anyCurrent"),
    });
  };
}

/** One mutation's outcome as a toast: done, or the translated reason. */
function useOutcome() {
  const describeError = useErrorMessage();
  return (done: string) => ({
    onSuccess: () => notify("success", done),
    onError: (error: unknown) => notify("error", describeError(error, "admin:failed").message),
  });
}

function AddRuleForm({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation("admin-apps");
  const describeError = useErrorMessage();
  const add = useAddRule(applicationId);
  const empty = { affiliation: "", unitId: "", unitCode: "", includeSubunits: true, status: "" };
  // A unit admin's rule names one of their units: a rule for any unit would open it to the whole university.
  const everywhere = useReachesEverywhere();
  const [rule, setRule] = useState(empty);
  // Each rule added starts the unit picker afresh: its search as well as its choice.
  const [added, setAdded] = useState(0);
  const ids = { affiliation: useId(), subunits: useId(), status: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request: NewAccessRuleRequest = {
      affiliation: (rule.affiliation || null) as NewAccessRuleRequest["affiliation"],
      unitCode: rule.unitCode.trim() || null,
      includeSubunits: rule.includeSubunits,
      status: (rule.status || null) as NewAccessRuleRequest["status"],
    };
    add.mutate(request, {
      onSuccess: () => {
        notify("success", t("admin-apps:rules.added"));
        setRule(empty);
        setAdded((count) => count + 1);
      },
    });
  };
  return (
    <form className="flex flex-col gap-3" onSubmit={submit} aria-label={t("admin-apps:rules.add")}>
      <div className="grid gap-3 sm:grid-cols-3 lg:grid-cols-1">
        <div className="flex flex-col gap-1">
          <Label htmlFor={ids.affiliation}>{t("admin-apps:rules.affiliation")}</Label>
          <select
            id={ids.affiliation}
            className={selectClass}
            value={rule.affiliation}
            onChange={(event) => setRule({ ...rule, affiliation: event.target.value })}
            data-testid="rule-affiliation"
          >
            <option value="">{t("admin-apps:rules.any")}</option>
            {accessRuleAffiliations.map((affiliation) => (
              <option key={affiliation} value={affiliation}>
                {t(`admin-apps:rules.affiliations.${affiliation}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <UnitPicker
            key={added}
            label={t("admin-apps:rules.unit")}
            value={rule.unitId}
            onChange={(unit) => setRule({ ...rule, unitId: unit?.id ?? "", unitCode: unit?.code ?? "" })}
            none={everywhere ? t("admin-apps:rules.anyUnit") : undefined}
            testId="rule-unit"
          />
          <label className="flex items-center gap-2 text-sm" htmlFor={ids.subunits}>
            <input
              id={ids.subunits}
              type="checkbox"
              className="size-4 accent-primary"
              checked={rule.includeSubunits}
              onChange={(event) => setRule({ ...rule, includeSubunits: event.target.checked })}
            />
            {t("admin-apps:rules.includeSubunits")}
          </label>
        </div>
        <div className="flex flex-col gap-1">
          <Label htmlFor={ids.status}>{t("admin-apps:rules.status")}</Label>
          <select
            id={ids.status}
            className={selectClass}
            value={rule.status}
            onChange={(event) => setRule({ ...rule, status: event.target.value })}
          >
            <option value="">{t("admin-apps:rules.anyCurrent")}</option>
            {accessRuleStatuses.map((status) => (
              <option key={status} value={status}>
                {t(`admin-apps:rules.statuses.${status}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      {add.isError ? (
        <p role="alert" className="text-sm text-destructive-strong">
          {describeError(add.error, "admin:failed").message}
        </p>
      ) : null}
      <Button type="submit" variant="outline" className="self-start" loading={add.isPending} data-testid="rule-add">
        {t("admin-apps:rules.add")}
      </Button>
    </form>
  );
}

function Exclusions({ application }: { application: AdminApplicationDetail }) {
  const { t } = useTranslation("admin-apps");
  const appTitle = useAppTitle();
  const access = useApplicationAccess(application.id, { asked: true });
  const exclude = useExclude(application.id);
  const lift = useLiftExclusion(application.id);
  const outcome = useOutcome();
  const [username, setUsername] = useState("");
  const inputId = useId();
  const exclusions = access.data?.exclusions ?? [];
  return (
    <div className="flex flex-col gap-2 border-t border-border pt-3">
      <h4 className="text-sm font-semibold">{t("admin-apps:rules.exclusions")}</h4>
      {/*
       * Not "no exclusions" unless an answer says so: a placeholder of that line until it is in, and nothing after a
       * failed one (the section says that it failed). Keyed by the answer the rest of the section shows, not by
       * isSuccess, which a failed refetch turns off while the last answer's rules and count still stand.
       */}
      {access.isPending ? <Skeleton className="h-5 w-1/2" /> : null}
      {access.data && exclusions.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("admin-apps:rules.noExclusions")}</p>
      ) : null}
      <ul className="flex flex-col gap-2">
        {exclusions.map((person) => (
          <li key={person.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>
              {person.fullName} <span className="text-muted-foreground">({person.username})</span>
            </span>
            <Button
              variant="outline"
              size="sm"
              onClick={() => lift.mutate({ userId: person.id }, outcome(t("admin-apps:rules.lifted")))}
            >
              {t("admin-apps:rules.lift")}
              <span className="sr-only">: {person.username}</span>
            </Button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-end gap-2">
        <div className="flex flex-col gap-1">
          <Label htmlFor={inputId}>{t("admin-apps:rules.excludeUsername")}</Label>
          <Input id={inputId} value={username} onChange={(event) => setUsername(event.target.value)} />
        </div>
        <ConfirmButton
          disabled={!username.trim()}
          question={t("admin-apps:rules.excludeQuestion", { username: username.trim(), app: appTitle(application) })}
          consequence={t("admin-apps:rules.excludeConsequence", {
            username: username.trim(),
            app: appTitle(application),
          })}
          confirmLabel={t("admin-apps:rules.exclude")}
          onConfirm={() =>
            exclude.mutate(
              { username: username.trim() },
              {
                ...outcome(t("admin-apps:rules.excluded")),
                onSettled: () => setUsername(""),
              },
            )
          }
        >
          {t("admin-apps:rules.exclude")}
        </ConfirmButton>
      </div>
    </div>
  );
}

/** Access by rule (issue 21): the rules, how many people they give, adding and removing; exclusions. */
export function RulesSection({ application }: { application: AdminApplicationDetail }) {
  const { t } = useTranslation("admin-apps");
  const appTitle = useAppTitle();
  const access = useApplicationAccess(application.id, { asked: true });
  const remove = useRemoveRule(application.id);
  const outcome = useOutcome();
  const describe = useDescribeRule();
  const rules = access.data?.rules ?? [];
  return (
    <Section title={t("admin-apps:rules.title")} testId="application-rules" busy={access.isPending}>
      {/*
       * The screen waits for this answer (answers-first.tsx); one later than that wait finds a placeholder of the
       * count and "no rules" lines here, so the form below moves by the rules alone, not by the whole answer. Each
       * line takes two on a phone (and in Ukrainian beside the settings on a wide screen), and so does its place.
       */}
      {access.isPending ? (
        <div className="flex flex-col gap-3" data-testid="rules-loading">
          <Skeleton className="h-10 w-5/6" />
          <Skeleton className="h-10 w-2/3" />
        </div>
      ) : null}
      {access.isError && !access.data ? (
        <ReadFailed what={t("admin-apps:rules.loadFailed")} error={access.error} testId="rules-failed" />
      ) : null}
      {access.data ? (
        <p className="text-sm font-medium" data-testid="rules-people" aria-live="polite">
          {t("admin-apps:rules.people", { count: access.data.people })}
        </p>
      ) : null}
      {access.data && rules.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t("admin-apps:rules.none")}</p>
      ) : null}
      <ul className="flex flex-col gap-2" data-testid="rules-list">
        {rules.map((rule) => (
          <li key={rule.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span>{describe(rule)}</span>
            <ConfirmButton
              question={t("admin-apps:rules.removeQuestion", { app: appTitle(application) })}
              consequence={t("admin-apps:rules.removeConsequence", {
                app: appTitle(application),
                rule: describe(rule),
              })}
              confirmLabel={t("admin-apps:rules.remove")}
              onConfirm={() => remove.mutate({ ruleId: rule.id }, outcome(t("admin-apps:rules.removed")))}
            >
              {t("admin-apps:rules.remove")}
            </ConfirmButton>
          </li>
        ))}
      </ul>
      <AddRuleForm applicationId={application.id} />
      <Exclusions application={application} />
    </Section>
  );
}
