/** A rule with a word in the middle ("or"). */
export function TextSeparator({ text }: { text: string }) {
  return (
    <div className="flex items-center gap-3 text-xs font-medium uppercase tracking-wider text-muted-foreground">
      <span className="h-px flex-1 bg-border" aria-hidden />
      <span>{text}</span>
      <span className="h-px flex-1 bg-border" aria-hidden />
    </div>
  );
}
