import { TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { Button, buttonVariants } from "@/components/ui/button.tsx";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { browser } from "@/lib/browser.ts";
import { isChunkLoadError, reloadOnceForNewVersion } from "@/lib/chunk-load.ts";
import { notify } from "@/lib/notify.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

function messageOf(error: unknown): string | undefined {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return undefined;
}

/** A stale tab after a deploy: reload once; if that did not help, say so in words, not the browser's. */
function NewVersionError() {
  const { t } = useTranslation();
  const [reloading] = useState(reloadOnceForNewVersion);
  useEffect(() => {
    if (!reloading) notify("error", t("common:newVersion.title"), { id: "route-error" });
  }, [reloading, t]);
  if (reloading) return <PageSpinner label={t("common:loading")} />;
  return (
    <div className="mx-auto flex w-full max-w-[450px] flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <TriangleAlert className="size-10 text-destructive" aria-hidden />
      <h1 className="text-2xl font-semibold text-foreground">{t("common:newVersion.title")}</h1>
      <p className="text-muted-foreground">{t("common:newVersion.description")}</p>
      <Button onClick={() => browser.reload()}>{t("common:newVersion.reload")}</Button>
    </div>
  );
}

/** The error screen of a route group; the error's own message also appears as an error toast. */
export function RouteError() {
  const error = useRouteError();
  return isChunkLoadError(error) ? <NewVersionError /> : <GenericRouteError error={error} />;
}

function GenericRouteError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const message = messageOf(error);
  useEffect(() => {
    if (message) notify("error", message, { id: "route-error" });
  }, [message]);
  return (
    <div className="mx-auto flex w-full max-w-[450px] flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <TriangleAlert className="size-10 text-destructive" aria-hidden />
      <h1 className="text-2xl font-semibold text-foreground">{t("common:routeError.title")}</h1>
      <p className="text-muted-foreground">{t("common:routeError.description")}</p>
      <Link to={localizePath(language, "/")} className={buttonVariants()} reloadDocument>
        {t("common:actions.returnHome")}
      </Link>
    </div>
  );
}
