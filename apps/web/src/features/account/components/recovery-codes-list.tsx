import { Download, Printer } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Alert } from "@/components/ui/alert.tsx";
import { Button } from "@/components/ui/button.tsx";
import { CopyButton } from "@/components/ui/copy-button.tsx";
import { browser } from "@/lib/browser.ts";

/** What set-up shows once: the ten recovery codes, and where a waiting sign-in goes on after them. */
export interface ShownCodes {
  codes: string[];
  next?: string;
}

/** The codes as a text file a person keeps: what they are, for which account, one code a line. */
export function recoveryCodesText(codes: string[], heading: string): string {
  return `${heading}\n\n${codes.join("\n")}\n`;
}

function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.click();
  // After the click has handed the file to the browser's download.
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The ten recovery codes, shown once: the person copies them, downloads them as a text file or prints
 * them. When a sign-in led them here to set the factor up, saving the codes goes on to it (`next`).
 */
export function RecoveryCodesList({ codes, next, onDone }: ShownCodes & { onDone: () => void }) {
  const { t } = useTranslation("account");
  const text = recoveryCodesText(codes, t("account:secondFactor.codesFileHeading"));
  return (
    <Alert title={t("account:secondFactor.codesTitle")} testId="recovery-codes">
      <p>{t("account:secondFactor.codesHint")}</p>
      <ul className="my-3 grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="mb-3 flex flex-wrap gap-2 print:hidden">
        <CopyButton text={text} copiedMessage={t("account:secondFactor.codesCopied")}>
          {t("account:secondFactor.codesCopy")}
        </CopyButton>
        <Button
          variant="outline"
          size="sm"
          icon={<Download aria-hidden />}
          onClick={() => download(text, "kpi-id-recovery-codes.txt")}
        >
          {t("account:secondFactor.codesDownload")}
        </Button>
        <Button variant="outline" size="sm" icon={<Printer aria-hidden />} onClick={() => window.print()}>
          {t("account:secondFactor.codesPrint")}
        </Button>
      </div>
      {next ? <p className="mb-3">{t("account:secondFactor.codesContinueHint")}</p> : null}
      <Button size="sm" onClick={next ? () => browser.assign(next) : onDone}>
        {t(next ? "account:secondFactor.codesContinue" : "account:secondFactor.codesDone")}
      </Button>
    </Alert>
  );
}
