-- A unit admin decides the reviews of their units' applications (issue 79). Where the operators let a unit's
-- decisions be final (`unit reviews --code FICT --final yes`: the unit and every unit below it), a unit admin's
-- approval makes the application live; elsewhere it is a first approval, and the request waits for central IT,
-- who read which unit approved it.
alter table units add column reviews_final boolean not null default false;

-- The first approval of a pending request: the unit it was given in (no foreign key: the record outlives the unit,
-- as the audit does), by whom and when. A replaced change is a new row, so an approval never carries over to
-- values the unit admin did not read.
alter table application_reviews add column unit_approved_unit_id uuid;
alter table application_reviews add column unit_approved_by uuid references users (id) on delete set null;
alter table application_reviews add column unit_approved_at timestamptz;
alter table application_changes add column unit_approved_unit_id uuid;
alter table application_changes add column unit_approved_by uuid references users (id) on delete set null;
alter table application_changes add column unit_approved_at timestamptz;
