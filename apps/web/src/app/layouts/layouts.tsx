import { Suspense } from "react";
import { useTranslation } from "react-i18next";
import { Outlet } from "react-router";
import { PageSpinner } from "@/components/ui/spinner.tsx";
import { PrivateFooter, PublicFooter } from "./footer.tsx";
import { Header } from "./header.tsx";

function Shell({ footer }: { footer: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:text-primary focus:shadow"
      >
        {t("common:skipToContent")}
      </a>
      <Header />
      <main id="main" tabIndex={-1} className="flex w-full flex-1 flex-col focus:outline-none">
        <Suspense fallback={<PageSpinner label={t("common:loading")} />}>
          <Outlet />
        </Suspense>
      </main>
      {footer}
    </div>
  );
}

export function PublicLayout() {
  return <Shell footer={<PublicFooter />} />;
}

export function PrivateLayout() {
  return <Shell footer={<PrivateFooter />} />;
}
