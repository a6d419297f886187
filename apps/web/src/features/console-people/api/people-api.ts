import { peoplePageSchema, personDetailSchema } from "@kpi-id/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { consoleKey } from "@/features/console-shell/index.ts";
import { apiJson } from "@/lib/api-client.ts";

export interface PeopleFilters {
  q: string;
  status: "" | "active" | "disabled";
  app: string;
  page: number;
}

export function usePeople(filters: PeopleFilters) {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set("q", filters.q.trim());
  if (filters.status) params.set("status", filters.status);
  if (filters.app) params.set("app", filters.app);
  if (filters.page > 1) params.set("page", String(filters.page));
  return useQuery({
    queryKey: [...consoleKey, "people", params.toString()],
    queryFn: () => apiJson(`/api/admin/people?${params}`, { failure: "Failed to search people" }, peoplePageSchema),
    // The table keeps the last answer while the next keystroke's search runs, instead of flashing empty.
    placeholderData: keepPreviousData,
  });
}

export function usePerson(id: string) {
  return useQuery({
    queryKey: [...consoleKey, "person", id],
    queryFn: () => apiJson(`/api/admin/people/${id}`, { failure: "Failed to load the person" }, personDetailSchema),
  });
}
