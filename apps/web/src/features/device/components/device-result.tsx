import { CircleCheck, CircleX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { StatusLine } from "@/components/ui/live-status.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

const applicationKey = "kpi-id-device-application";

/** The application's title, for the page the provider sends the browser back to after Allow or Deny. */
export function rememberDeviceApplication(title: string): void {
  try {
    sessionStorage.setItem(applicationKey, title);
  } catch {
    // Storage refused (private mode): the result page says it without the name.
  }
}

function rememberedApplication(): string | undefined {
  try {
    return sessionStorage.getItem(applicationKey) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Where the provider leaves the browser: the device is signed in (`allowed`) or was refused (`denied`). */
export function DeviceResult({ result }: { result: "allowed" | "denied" }) {
  const { t } = useTranslation("consent");
  const language = useLanguage();
  const application = rememberedApplication();
  const allowed = result === "allowed";
  const Icon = allowed ? CircleCheck : CircleX;
  const texts = allowed ? "device.allowed" : "device.denied";
  return (
    <div className="flex flex-col items-center gap-4 text-center" data-testid={`device-${result}`}>
      <Icon className={allowed ? "size-14 text-emerald-700" : "size-14 text-muted-foreground"} aria-hidden />
      <h1 className="text-2xl font-semibold tracking-tight text-foreground sm:text-3xl">{t(`${texts}.title`)}</h1>
      {/* The result is seen at once and said by a status that enters empty (StatusLine): the page opens with it. */}
      <StatusLine
        words={application ? t(`${texts}.named`, { application }) : t(`${texts}.description`)}
        className="text-muted-foreground"
      />
      <p className="text-muted-foreground">{t(`${texts}.next`)}</p>
      <Button asChild variant="outline">
        <Link to={localizePath(language, "/device")}>{t("device.otherDevice")}</Link>
      </Button>
    </div>
  );
}
