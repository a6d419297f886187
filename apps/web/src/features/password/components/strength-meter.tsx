import { PASSWORD_ADVISED_LENGTH, PASSWORD_MIN_LENGTH, passwordLength } from "@kpi-id/contracts";
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue } from "react";
import { useTranslation } from "react-i18next";
import { StatusLine } from "@/components/ui/live-status.tsx";
import { cn } from "@/lib/utils.ts";
import { loadEstimate, type StrengthScore } from "../strength/estimate.ts";

const barColour: Record<StrengthScore, string> = {
  0: "bg-destructive",
  1: "bg-destructive",
  2: "bg-amber-500",
  3: "bg-emerald-600",
  4: "bg-emerald-700",
};

/** The length rule in words: too short, long enough, or long enough as advised. */
function lengthNote(length: number): "tooShort" | "short" | "long" {
  if (length < PASSWORD_MIN_LENGTH) return "tooShort";
  return length < PASSWORD_ADVISED_LENGTH ? "short" : "long";
}

interface StrengthMeterProps {
  password: string;
  contextWords: readonly string[];
  id?: string;
}

/**
 * How guessable the new password is (zxcvbn-ts, loaded when first needed) and why: its length against
 * NIST's 8 (15 advised), then the estimator's warning and suggestions. Advice only: the server decides.
 */
export function StrengthMeter({ password, contextWords, id }: StrengthMeterProps) {
  const { t } = useTranslation("password");
  const typed = useDeferredValue(password);
  const estimate = useQuery({ queryKey: ["password-estimator"], queryFn: loadEstimate, staleTime: Infinity });
  if (typed === "") {
    return (
      <p id={id} className="text-sm text-muted-foreground">
        {t("password:rules", { min: PASSWORD_MIN_LENGTH, advised: PASSWORD_ADVISED_LENGTH })}
      </p>
    );
  }
  const length = passwordLength(typed);
  const note = lengthNote(length);
  const strength = estimate.data?.(typed, contextWords);
  const score: StrengthScore = note === "tooShort" ? 0 : (strength?.score ?? 0);
  const scoreWords = strength ? t(`password:score.${score}`) : t("password:checking");
  const lengthWords = t(`password:length.${note}`, {
    count: length,
    min: PASSWORD_MIN_LENGTH,
    advised: PASSWORD_ADVISED_LENGTH,
  });
  return (
    <div id={id} className="space-y-1.5 text-sm" data-testid="strength-meter" data-score={score}>
      <div className="flex gap-1" aria-hidden>
        {[1, 2, 3, 4].map((step) => (
          <span
            key={step}
            className={cn("h-1.5 flex-1 rounded-full", strength && score >= step ? barColour[score] : "bg-muted")}
          />
        ))}
      </div>
      {/* The meter comes in with the first character typed: its line is said by a status that enters empty. */}
      <StatusLine words={`${scoreWords} · ${lengthWords}`} className="font-medium text-foreground">
        {scoreWords}
        {" · "}
        <span className={cn("font-normal", note === "tooShort" ? "text-destructive" : "text-muted-foreground")}>
          {lengthWords}
        </span>
      </StatusLine>
      {strength?.refused ? (
        <p className="text-destructive" data-testid="password-will-be-refused">
          {t(`password:refused.${strength.refused}`)}
        </p>
      ) : null}
      {strength?.warning ? <p className="text-destructive">{t(`password:warnings.${strength.warning}`)}</p> : null}
      {strength && strength.suggestions.length > 0 ? (
        <ul className="list-disc space-y-0.5 pl-5 text-muted-foreground">
          {strength.suggestions.map((key) => (
            <li key={key}>{t(`password:suggestions.${key}`)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
