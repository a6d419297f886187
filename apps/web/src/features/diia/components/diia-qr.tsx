import { QRCodeCanvas, QRCodeSVG } from "qrcode.react";
import { memo } from "react";

export const QR_SIZE = 364;

interface DiiaQrProps {
  deepLink: string;
  label: string;
  /** SVG scales sharply on every screen; canvas is offered for hosts that prefer bitmaps. */
  renderAs?: "svg" | "canvas";
  /** On mobile the code is also a link that opens Diia in a new tab. */
  asLink?: boolean;
  linkLabel: string;
}

/**
 * Memoised: the screen around it re-renders on every polling answer and state change, and the code (a
 * few thousand SVG path segments, all eight masks scored to make it) only changes with the link.
 */
export const DiiaQr = memo(function DiiaQr({
  deepLink,
  label,
  renderAs = "svg",
  asLink = false,
  linkLabel,
}: DiiaQrProps) {
  const common = { value: deepLink, size: QR_SIZE, level: "L" as const, marginSize: 0, title: label };
  const code =
    renderAs === "canvas" ? (
      <QRCodeCanvas {...common} role="img" aria-label={label} className="h-auto w-full" />
    ) : (
      <QRCodeSVG {...common} role="img" aria-label={label} className="h-auto w-full" />
    );
  const frame = "block w-full max-w-[388px] rounded-lg bg-white p-3 shadow-sm ring-1 ring-border";
  if (!asLink)
    return (
      <div className={frame} data-testid="diia-qr">
        {code}
      </div>
    );
  return (
    <a
      href={deepLink}
      target="_blank"
      rel="noopener noreferrer"
      className={`${frame} focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring`}
      aria-label={linkLabel}
      data-testid="diia-qr"
    >
      {code}
    </a>
  );
});
