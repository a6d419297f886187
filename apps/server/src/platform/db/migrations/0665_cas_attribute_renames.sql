-- Issue 73: a CAS service may release attributes under the names its plugin expects (GitLab's omniauth-cas3
-- reads `email`, KPI ID releases `mail`), as Apereo CAS's attribute release policy renames them. KPI ID's
-- attribute name → the released name; empty: every attribute under its own name. Expand only: an older
-- release ignores the column and its upsert leaves it as it is.
alter table cas_services add column renames jsonb not null default '{}'::jsonb;
