import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { Textarea } from "@/components/ui/textarea.tsx";

/** The reason form a rejection needs: the owners read it, so an empty one is refused here with why. */
export function RejectForm({
  pending,
  onReject,
  onCancel,
}: {
  pending: boolean;
  onReject: (reason: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation("admin-reviews");
  const id = useId();
  const [reason, setReason] = useState("");
  const [missing, setMissing] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The server takes at least 3 characters; fewer is no reason anyone could act on.
    if (reason.trim().length < 3) {
      setMissing(true);
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    onReject(reason.trim());
  };
  return (
    <form className="flex flex-col gap-2" onSubmit={submit} noValidate aria-label={t("admin-reviews:reject")}>
      <Label htmlFor={`${id}-reason`}>{t("admin-reviews:reason")}</Label>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        {t("admin-reviews:reasonHint")}
      </p>
      <Textarea
        id={`${id}-reason`}
        value={reason}
        maxLength={2000}
        aria-invalid={missing}
        aria-describedby={missing ? `${id}-hint ${id}-error` : `${id}-hint`}
        data-testid="review-reason"
        onChange={(event) => {
          setReason(event.target.value);
          if (missing && event.target.value.trim().length >= 3) setMissing(false);
        }}
      />
      {missing ? (
        <p id={`${id}-error`} className="text-sm font-medium text-destructive-strong" data-testid="review-reason-error">
          {t("admin-reviews:reasonRequired")}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={pending} data-testid="review-reject-submit">
          {t("admin-reviews:rejectSubmit")}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          {t("admin-reviews:cancel")}
        </Button>
      </div>
    </form>
  );
}
