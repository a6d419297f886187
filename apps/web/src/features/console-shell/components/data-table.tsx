import { type ColumnDef, type RowData, tableFeatures, useTable } from "@tanstack/react-table";
import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Skeleton } from "@/components/ui/skeleton.tsx";
import { useHiddenColumns } from "./use-hidden-columns.ts";

const features = tableFeatures({});

export type ConsoleColumn<Row extends RowData> = ColumnDef<typeof features, Row>;

interface DataTableProps<Row extends RowData> {
  columns: ConsoleColumn<Row>[];
  rows: Row[];
  label: string;
  empty: string;
  testId?: string;
  /** While the table's first answer is read: about as many rows as it will bring, as placeholders (PlaceholderRows). */
  loadingRows?: number;
}

/**
 * A table's rows while its first answer is read: skeletons of a loaded row's height, as many as the caller expects,
 * so that what stands below (the paging buttons) is where it will be once the rows are in. A single "Loading…" row
 * grew into a page of rows and pushed the buttons down under a tap. The rows are blank to a screen reader (hidden
 * from it); DataTable says "Loading…" outside the busy body instead.
 */
function PlaceholderRows({ count, span }: { count: number; span: number }) {
  return Array.from({ length: count }, (_, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholders of a fixed count, never reordered
    <tr key={index} aria-hidden data-testid="row-placeholder">
      <td colSpan={span} className="px-3 py-2">
        {/* A loaded row's height: one line from 640 px, two below, where the names wrap in their narrow column. */}
        <Skeleton className="h-10 w-full sm:h-5" />
      </td>
    </tr>
  ));
}

/**
 * The console's lists: a TanStack table in the app's look, scrolling sideways on a phone. The wrapper is
 * positioned so that visually hidden text in a cell (sr-only, absolutely placed) scrolls with the table
 * instead of widening the whole page at 390 px. When columns are off-screen the box says so, can be
 * focused and scrolled with the arrow keys (WCAG 2.1.1; axe's scrollable-region-focusable), and fades
 * at the edge where more columns wait.
 */
export function DataTable<Row extends RowData>({
  columns,
  rows,
  label,
  empty,
  testId,
  loadingRows = 0,
}: DataTableProps<Row>) {
  const { t } = useTranslation("admin");
  const table = useTable({ features, columns, data: rows });
  const box = useRef<HTMLDivElement>(null);
  const { overflows, moreToTheRight } = useHiddenColumns(box);
  const loading = loadingRows > 0;
  const loadingWordsId = useId();
  return (
    <div>
      {moreToTheRight && (
        <p className="mb-1 text-xs text-muted-foreground" data-testid="more-columns">
          {t("table.moreColumns")}
        </p>
      )}
      <div className="relative">
        <div
          ref={box}
          className="relative overflow-x-auto rounded-lg border border-border bg-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          data-testid={testId}
          {...(overflows ? { tabIndex: 0, role: "region", "aria-label": t("table.scrollable", { label }) } : {})}
        >
          {/* Only the body is busy, and "Loading…" stands outside it, before the table and as its description: words
              inside a busy element may go unread (JAWS, VoiceOver), as they did in the table's first placeholder row. */}
          {loading ? (
            <p id={loadingWordsId} className="sr-only">
              {t("admin:loading")}
            </p>
          ) : null}
          <table
            className="w-full text-left text-sm"
            aria-label={label}
            aria-describedby={loading ? loadingWordsId : undefined}
          >
            <thead className="bg-muted/60 text-xs tracking-wide text-muted-foreground uppercase">
              {table.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => (
                    <th key={header.id} scope="col" className="px-3 py-2 font-semibold whitespace-nowrap">
                      <table.FlexRender header={header} />
                    </th>
                  ))}
                </tr>
              ))}
            </thead>
            <tbody className="divide-y divide-border" aria-busy={loading || undefined}>
              {loading ? (
                <PlaceholderRows count={loadingRows} span={columns.length} />
              ) : table.getRowModel().rows.length === 0 ? (
                <tr>
                  <td colSpan={columns.length} className="px-3 py-6 text-center text-muted-foreground">
                    {empty}
                  </td>
                </tr>
              ) : (
                table.getRowModel().rows.map((row) => (
                  <tr key={row.id} className="hover:bg-muted/40">
                    {row.getAllCells().map((cell) => (
                      <td key={cell.id} className="px-3 py-2 align-top">
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {moreToTheRight && (
          <div
            aria-hidden
            className="pointer-events-none absolute inset-y-0 right-0 w-8 rounded-r-lg bg-gradient-to-l from-white"
          />
        )}
      </div>
    </div>
  );
}
