import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { Button } from "@/components/ui/button.tsx";
import { pageContainer } from "@/lib/layout.ts";
import { localizePath } from "@/lib/paths.ts";
import { useLanguage } from "@/lib/use-language.ts";
import { cn } from "@/lib/utils.ts";

/** One step back in history; a page opened directly has nothing behind it, so it goes home instead. */
export function BackButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const language = useLanguage();
  const back = () => {
    const index = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (index > 0) navigate(-1);
    else navigate(localizePath(language, "/"));
  };
  return (
    <Button variant="ghost" size="sm" className="-ml-3 self-start" onClick={back} icon={<ArrowLeft aria-hidden />}>
      {t("common:actions.back")}
    </Button>
  );
}

interface ContentPageProps {
  title: ReactNode;
  children: ReactNode;
  width?: "narrow" | "wide";
  back?: boolean;
  centered?: boolean;
}

/** A content page: Back button, one h1, the body. */
export function ContentPage({ title, children, width = "wide", back = true, centered = false }: ContentPageProps) {
  return (
    <div
      className={cn(
        "flex flex-col gap-4 py-8 sm:py-12",
        // Wide pages share the container's left edge; their text keeps a readable line length.
        width === "narrow" ? "mx-auto w-full max-w-[450px] px-4" : cn(pageContainer, "[&>*]:max-w-3xl"),
      )}
    >
      {back ? <BackButton /> : null}
      <h1
        className={cn("text-2xl font-semibold tracking-tight text-foreground sm:text-3xl", centered && "text-center")}
      >
        {title}
      </h1>
      {children}
    </div>
  );
}
