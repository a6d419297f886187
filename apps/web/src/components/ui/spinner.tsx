import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/utils.ts";
import { LiveStatus } from "./live-status.tsx";

const spinnerSizes = { small: "size-4", large: "size-8", xlarge: "size-10" } as const;

interface SpinnerProps {
  size?: keyof typeof spinnerSizes;
  className?: string;
  /** Said by screen readers, through a status around the icon; omit when the spinner sits inside a labelled control. */
  label?: string;
}

export function Spinner({ size = "small", className, label }: SpinnerProps) {
  const icon = <LoaderCircle className={cn(spinnerSizes[size], "animate-spin", className)} aria-hidden />;
  if (!label) return icon;
  // The label is said by a status around the icon (LiveStatus says why it enters empty); an aria-label on the
  // status itself would be there from the start. `flex` makes the box exactly the icon's size, with no line box
  // around it, so the spinner stands where and as large as it did as a bare icon.
  return (
    <LiveStatus words={label} className="flex">
      {icon}
    </LiveStatus>
  );
}

/** Centres a large spinner in the available space (gates, lazy pages). */
export function PageSpinner({ label }: { label: string }) {
  return (
    <div className="flex min-h-[40vh] flex-1 items-center justify-center text-primary">
      <Spinner size="large" label={label} />
    </div>
  );
}

/** Covers the whole screen while a sign-in completes. */
export function FullScreenSpinner({ label }: { label: string }) {
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-background/80 text-primary backdrop-blur-sm">
      <Spinner size="xlarge" label={label} />
    </div>
  );
}
