import { LoaderCircle } from "lucide-react";
import { cn } from "@/lib/utils.ts";

const spinnerSizes = { small: "size-4", large: "size-8", xlarge: "size-10" } as const;

interface SpinnerProps {
  size?: keyof typeof spinnerSizes;
  className?: string;
  /** Read by screen readers; omit when the spinner sits inside a labelled control. */
  label?: string;
}

export function Spinner({ size = "small", className, label }: SpinnerProps) {
  return (
    <LoaderCircle
      className={cn(spinnerSizes[size], "animate-spin", className)}
      role={label ? "status" : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
    />
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
