import { type IconUpload, iconContentTypes, iconMaxBytes } from "@kpi-id/contracts";
import { type ChangeEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Label } from "@/components/ui/label.tsx";
import { useErrorMessage } from "@/lib/error-message.ts";

function base64Of(buffer: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The application's icon: a PNG or SVG file uploaded to KPI ID, which serves it itself (issue 56). The address it
 * answers goes into the form; saving makes it the icon (after approval when the application is live).
 */
export function IconField({
  value,
  onChange,
  upload,
}: {
  value: string;
  onChange: (iconUrl: string) => void;
  upload: (file: IconUpload) => Promise<{ iconUrl: string }>;
}) {
  const { t } = useTranslation(["developers", "errors"]);
  const id = useId();
  const describeError = useErrorMessage();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const contentType = iconContentTypes.find((type) => type === file.type);
    if (!contentType || file.size > iconMaxBytes) {
      setProblem(t("errors:developer.invalid_icon"));
      return;
    }
    setBusy(true);
    setProblem(undefined);
    try {
      const answer = await upload({ contentType, data: base64Of(await file.arrayBuffer()) });
      onChange(answer.iconUrl);
    } catch (error) {
      setProblem(describeError(error, "developers:errors.generic").message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="space-y-1.5">
      <Label htmlFor={`${id}-icon`}>{t("form.icon")}</Label>
      <div className="flex flex-wrap items-center gap-3">
        {value ? (
          <img src={value} alt="" className="size-12 rounded-md border border-border bg-white object-contain" />
        ) : (
          <span className="text-sm text-muted-foreground">{t("form.iconNone")}</span>
        )}
        <input
          id={`${id}-icon`}
          type="file"
          accept={iconContentTypes.join(",")}
          onChange={choose}
          disabled={busy}
          aria-describedby={problem ? `${id}-icon-hint ${id}-icon-error` : `${id}-icon-hint`}
          aria-invalid={problem ? true : undefined}
          // The browser's own button speaks the browser's language: a button of the page's own stands in for it.
          className="peer sr-only"
          data-testid="icon-file"
        />
        <label
          htmlFor={`${id}-icon`}
          className="inline-flex min-h-11 cursor-pointer items-center rounded-md border border-input bg-white px-3 text-sm font-medium text-foreground shadow-xs hover:bg-muted peer-focus-visible:ring-2 peer-focus-visible:ring-ring/40 peer-disabled:opacity-60"
        >
          {t("form.iconChoose")}
        </label>
        {value ? (
          <Button type="button" variant="ghost" onClick={() => onChange("")}>
            {t("form.iconRemove")}
          </Button>
        ) : null}
      </div>
      <p id={`${id}-icon-hint`} className="text-sm text-muted-foreground">
        {t("form.iconHint")}
      </p>
      {problem ? (
        <p id={`${id}-icon-error`} className="text-sm font-medium text-destructive-strong" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
