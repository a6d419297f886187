import type { FieldChange } from "@kpi-id/contracts";
import { ArrowDown } from "lucide-react";

function Values({ values, field, none }: { values: string[]; field: FieldChange["field"]; none: string }) {
  if (values.length === 0) return <span className="text-muted-foreground italic">{none}</span>;
  if (field === "iconUrl") {
    // KPI ID's own icon addresses only (the server never offers another host's): shown as the image.
    return <img src={values[0]} alt="" className="size-10 rounded border border-border bg-white object-contain" />;
  }
  return (
    <ul className="flex flex-col gap-0.5">
      {values.map((value) => (
        <li key={value} className="break-words whitespace-pre-wrap">
          {field.endsWith("Urls") || field === "redirectUris" ? (
            <code className="text-xs break-all">{value}</code>
          ) : (
            value
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * A change to an application, field by field, old → new: what the operators approve and what the owner asked for.
 * The words come from the caller (the console and the developers' page name fields in their own namespaces).
 */
export function FieldChanges({
  changes,
  label,
  words,
  testId,
}: {
  changes: FieldChange[];
  label: (field: FieldChange["field"]) => string;
  words: { before: string; after: string; none: string };
  testId?: string;
}) {
  return (
    <dl className="flex flex-col gap-3" data-testid={testId}>
      {changes.map((change) => (
        <div key={change.field} className="flex flex-col gap-1" data-testid="field-change" data-field={change.field}>
          <dt className="text-sm font-medium text-foreground">{label(change.field)}</dt>
          <dd className="grid gap-1 text-sm sm:grid-cols-[1fr_auto_1fr] sm:items-start">
            <div className="rounded-md bg-muted/60 px-2 py-1 text-muted-foreground line-through decoration-1">
              <span className="sr-only">{words.before} </span>
              <Values values={change.before} field={change.field} none={words.none} />
            </div>
            <ArrowDown
              className="size-4 self-center justify-self-center text-muted-foreground sm:-rotate-90"
              aria-hidden
            />
            <div
              className="rounded-md bg-primary/10 px-2 py-1 font-medium text-foreground"
              data-testid="field-change-after"
            >
              <span className="sr-only">{words.after} </span>
              <Values values={change.after} field={change.field} none={words.none} />
            </div>
          </dd>
        </div>
      ))}
    </dl>
  );
}
