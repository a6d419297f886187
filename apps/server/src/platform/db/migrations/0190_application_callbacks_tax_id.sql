-- Issue 19: an application may register several ticket callbacks (development and production);
-- callback_url stays the first (the one used when the sign-in link names none), the others follow.
alter table applications add column extra_callback_urls text[] not null default '{}';
-- Whether the ticket's data carries the person's tax id. Off for new applications; on for every
-- application registered before this migration, so no existing integration loses a field it reads.
alter table applications add column release_tax_id boolean not null default false;
update applications set release_tax_id = true;
