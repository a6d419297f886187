-- Issue 15: an application's title and description in English as well. Empty means "not translated":
-- GET /user then shows the Ukrainian ones to an English reader rather than nothing.
alter table applications add column title_en text not null default '';
alter table applications add column description_en text not null default '';
