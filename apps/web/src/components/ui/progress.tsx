import { cn } from "@/lib/utils.ts";

interface ProgressProps {
  value: number;
  max?: number;
  label: string;
  className?: string;
}

export function Progress({ value, max = 100, label, className }: ProgressProps) {
  const percent = Math.min(100, Math.max(0, (value / max) * 100));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.round(value)}
      className={cn("h-1.5 w-full overflow-hidden rounded-full bg-muted", className)}
    >
      {/* Scaled, not resized: a transform runs on the compositor, while a width transition re-laid out and
          repainted the page on every frame (on the Diia screen, ten steps a second, the main thread's
          largest cost on a slow phone). */}
      <div
        className="h-full w-full origin-left bg-primary transition-transform duration-100 ease-linear"
        style={{ transform: `scaleX(${percent / 100})` }}
      />
    </div>
  );
}
