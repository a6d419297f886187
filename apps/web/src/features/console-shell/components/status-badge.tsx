import { useTranslation } from "react-i18next";

export function StatusBadge({ status }: { status: "active" | "disabled" }) {
  const { t } = useTranslation("admin");
  const tone = status === "active" ? "bg-primary/10 text-primary" : "bg-destructive/10 text-destructive-strong";
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${tone}`}>{t(`admin:status.${status}`)}</span>;
}
