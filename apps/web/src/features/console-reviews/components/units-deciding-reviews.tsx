import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmButton } from "@/components/ui/confirm-button.tsx";
import {
  type ConsoleUnit,
  ReadFailed,
  Section,
  UnitPicker,
  useCan,
  useConsoleAction,
  useUnitName,
  useUnits,
} from "@/features/console-shell/index.ts";
import { useErrorMessage } from "@/lib/error-message.ts";
import { notify } from "@/lib/notify.ts";

/** The nearest unit above `unit` whose reviews are final: the setting covers every unit below the one it is on. */
function decidingAbove(unit: ConsoleUnit, units: readonly ConsoleUnit[]): ConsoleUnit | undefined {
  const byId = new Map(units.map((each) => [each.id, each]));
  // The tree has a few levels; the bound stops a loop in a tree the server should never send.
  let above = unit.parentId ? byId.get(unit.parentId) : undefined;
  for (let steps = 0; above && steps < units.length; steps += 1) {
    if (above.reviewsFinal) return above;
    above = above.parentId ? byId.get(above.parentId) : undefined;
  }
  return undefined;
}

/**
 * The units whose admins decide their own reviews (issue 79, `unit reviews --final yes|no`): there, a unit admin's
 * approval makes an application live; elsewhere it is a first approval that waits for central IT. Central IT's
 * setting alone (`apps.delegate_reviews`): a unit admin does not make their own decisions final, so they are not shown it.
 */
export function UnitsDecidingReviews() {
  const { t } = useTranslation(["admin-reviews", "admin"]);
  const canSet = useCan("apps.delegate_reviews");
  const units = useUnits(canSet);
  const unitName = useUnitName();
  const describeError = useErrorMessage();
  const setFinal = useConsoleAction<{ unitId: string; final: boolean }>(
    ({ unitId }) => `/api/admin/units/${unitId}/reviews-final`,
    ({ final }) => ({ final }),
  );
  const [unitId, setUnitId] = useState("");
  // Each unit let decide starts the picker afresh: its search as well as its choice.
  const [given, setGiven] = useState(0);
  // With no units at all (none imported yet) there is no unit admin whose approvals could be final.
  if (!canSet || units.data?.length === 0) return null;
  const all = units.data ?? [];
  const deciding = all.filter((unit) => unit.reviewsFinal);
  const chosen = all.find((unit) => unit.id === unitId);
  const above = chosen && !chosen.reviewsFinal ? decidingAbove(chosen, all) : undefined;
  const named = (unit: ConsoleUnit) => `${unit.code} · ${unitName(unit)}`;
  const run = (unit: ConsoleUnit, final: boolean) =>
    setFinal.mutate(
      { unitId: unit.id, final },
      {
        onSuccess: () => {
          notify("success", t(`admin-reviews:unitsDeciding.${final ? "granted" : "withdrawn"}`, { unit: unit.code }));
          if (!final) return;
          setUnitId("");
          setGiven((count) => count + 1);
        },
        onError: (error) => notify("error", describeError(error, "admin:failed").message),
      },
    );
  return (
    <Section title={t("admin-reviews:unitsDeciding.title")} testId="units-deciding-reviews">
      <p className="max-w-3xl text-sm text-muted-foreground">{t("admin-reviews:unitsDeciding.explain")}</p>
      {units.isError ? (
        <ReadFailed
          what={t("admin-reviews:unitsDeciding.loadFailed")}
          error={units.error}
          testId="units-deciding-failed"
        />
      ) : null}
      {units.data && deciding.length === 0 ? (
        <p className="text-sm text-foreground" data-testid="units-deciding-none">
          {t("admin-reviews:unitsDeciding.none")}
        </p>
      ) : null}
      <ul className="flex max-w-xl flex-col gap-2" data-testid="units-deciding-list">
        {deciding.map((unit) => (
          <li key={unit.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="min-w-0 break-words">
              <span className="font-medium">{unit.code}</span>{" "}
              <span className="text-muted-foreground">{unitName(unit)}</span>
            </span>
            <ConfirmButton
              question={t("admin-reviews:unitsDeciding.withdrawQuestion", { unit: unit.code })}
              consequence={t("admin-reviews:unitsDeciding.withdrawConsequence")}
              confirmLabel={t("admin-reviews:unitsDeciding.withdraw")}
              onConfirm={() => run(unit, false)}
              loading={setFinal.isPending}
            >
              {t("admin-reviews:unitsDeciding.withdraw")}
              <span className="sr-only">: {unit.code}</span>
            </ConfirmButton>
          </li>
        ))}
      </ul>
      <div className="flex max-w-xl flex-col gap-3 border-t border-border pt-3">
        <UnitPicker
          key={given}
          label={t("admin-reviews:unitsDeciding.unit")}
          value={unitId}
          onChange={(unit) => setUnitId(unit?.id ?? "")}
          testId="units-deciding-unit"
        />
        {chosen?.reviewsFinal ? (
          <p className="text-sm text-muted-foreground" data-testid="units-deciding-already">
            {t("admin-reviews:unitsDeciding.already", { unit: chosen.code })}
          </p>
        ) : null}
        {chosen && above ? (
          <p className="text-sm text-muted-foreground" data-testid="units-deciding-through">
            {t("admin-reviews:unitsDeciding.through", { unit: chosen.code, above: above.code })}
          </p>
        ) : null}
        <ConfirmButton
          variant="default"
          className="self-start"
          disabled={!chosen || chosen.reviewsFinal}
          question={t("admin-reviews:unitsDeciding.grantQuestion", { unit: chosen ? named(chosen) : "" })}
          consequence={t("admin-reviews:unitsDeciding.grantConsequence", { unit: chosen?.code ?? "" })}
          confirmLabel={t("admin-reviews:unitsDeciding.grant")}
          onConfirm={() => chosen && run(chosen, true)}
          loading={setFinal.isPending}
          data-testid="units-deciding-grant"
        >
          {t("admin-reviews:unitsDeciding.grant")}
        </ConfirmButton>
      </div>
    </Section>
  );
}
