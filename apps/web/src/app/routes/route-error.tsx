import { TriangleAlert } from "lucide-react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { toast } from "sonner";
import { buttonVariants } from "@/components/ui/button.tsx";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";

function messageOf(error: unknown): string | undefined {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return undefined;
}

/** The error screen of a route group; the error's own message also appears as an error toast. */
export function RouteError() {
  const { t } = useTranslation();
  const language = useLanguage();
  const error = useRouteError();
  const message = messageOf(error);
  useEffect(() => {
    if (message) toast.error(message, { id: "route-error" });
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
