import { type DeviceRequest, oidcDevicePath } from "@kpi-id/contracts";
import { AppWindow, ShieldX } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { RequestedData, useScopeWords } from "@/components/requested-data.tsx";
import { ReviewMark } from "@/components/review-mark.tsx";
import { Button } from "@/components/ui/button.tsx";
import { rememberDeviceApplication } from "./device-result.tsx";

/**
 * The request a code stands for: the application, the code to compare with the device's screen, what it
 * may read. Allow and Deny are the provider's own form, posted by the browser (its form token inside), so
 * the sign-in goes on through the provider's steps (a stronger sign-in if the application needs one) and
 * ends back on this page.
 */
export function DeviceConfirm({ request, onBack }: { request: DeviceRequest; onBack: () => void }) {
  const { t } = useTranslation("consent");
  const scopeWords = useScopeWords();
  const [sent, setSent] = useState<"confirm" | "abort" | undefined>();
  const { application } = request;
  // Allow (the provider's `confirm`) only for a person with access; Deny (`abort`) always.
  const answers = [
    ...(request.access ? [{ name: "confirm", label: "allow", variant: "default" } as const] : []),
    { name: "abort", label: "deny", variant: "outline" } as const,
  ];
  return (
    <div className="flex flex-col gap-6" data-testid="device-confirm">
      <div className="flex items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-primary/10 text-primary">
          <AppWindow className="size-6" aria-hidden />
        </span>
        <div className="min-w-0 space-y-1">
          <h1 className="break-words text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">
            {t("device.confirm.title", { application: application.title })}
          </h1>
          {application.description ? (
            <p className="break-words text-muted-foreground">{application.description}</p>
          ) : null}
        </div>
      </div>
      <ReviewMark reviewed={request.reviewed} />
      <div className="space-y-4 rounded-xl border border-border bg-white p-5 shadow-sm sm:p-6">
        <div className="space-y-1 text-center">
          <p className="text-sm text-muted-foreground">{t("device.confirm.compare")}</p>
          <p
            className="font-mono text-3xl font-semibold tracking-widest text-foreground"
            data-testid="device-user-code"
          >
            {request.userCode}
          </p>
        </div>
        <p className="text-foreground">{t("signedInAs", { name: request.person.name })}</p>
        {request.access ? (
          <>
            <p className="font-medium text-foreground">{t("requests", { application: application.title })}</p>
            <RequestedData items={scopeWords(request.scopes)} />
          </>
        ) : (
          <p className="flex items-start gap-2 text-foreground" role="alert" data-testid="device-no-access">
            <ShieldX className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
            <span>
              {t("noAccess.title", { application: application.title })}. {t("noAccess.description")}
            </span>
          </p>
        )}
        <form
          method="post"
          action={oidcDevicePath}
          className="flex flex-col gap-3 pt-2 sm:flex-row-reverse"
          onSubmit={(event) => {
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
            rememberDeviceApplication(application.title);
            // After the browser has read the form: a button disabled before that would leave out its
            // `confirm`/`abort`, and the provider would take the post for a mere look-up.
            setTimeout(() => setSent(submitter?.name === "abort" ? "abort" : "confirm"), 0);
          }}
        >
          <input type="hidden" name="xsrf" value={request.xsrf} />
          <input type="hidden" name="user_code" value={request.userCode} />
          {answers.map(({ name, label, variant }) => (
            <Button
              key={name}
              type="submit"
              name={name}
              value="yes"
              variant={variant}
              className="sm:flex-1"
              loading={sent === name}
              disabled={sent !== undefined}
            >
              {t(label)}
            </Button>
          ))}
        </form>
      </div>
      <p className="text-sm text-muted-foreground">{t("device.confirm.note")}</p>
      <Button variant="ghost" size="sm" className="-ml-3 self-start" onClick={onBack} disabled={sent !== undefined}>
        {t("device.confirm.otherCode")}
      </Button>
    </div>
  );
}
