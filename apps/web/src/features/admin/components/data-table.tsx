import { type ColumnDef, type RowData, tableFeatures, useTable } from "@tanstack/react-table";

const features = tableFeatures({});

export type ConsoleColumn<Row extends RowData> = ColumnDef<typeof features, Row>;

interface DataTableProps<Row extends RowData> {
  columns: ConsoleColumn<Row>[];
  rows: Row[];
  label: string;
  empty: string;
  testId?: string;
}

/**
 * The console's lists: a TanStack table in the app's look, scrolling sideways on a phone. The wrapper is
 * positioned so that visually hidden text in a cell (sr-only, absolutely placed) scrolls with the table
 * instead of widening the whole page at 390 px.
 */
export function DataTable<Row extends RowData>({ columns, rows, label, empty, testId }: DataTableProps<Row>) {
  const table = useTable({ features, columns, data: rows });
  return (
    <div className="relative overflow-x-auto rounded-lg border border-border bg-white" data-testid={testId}>
      <table className="w-full text-left text-sm" aria-label={label}>
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
        <tbody className="divide-y divide-border">
          {table.getRowModel().rows.length === 0 ? (
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
  );
}
