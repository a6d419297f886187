-- Performance (issue 20): oidc-provider looks sessions and interactions up by (type, uid).
-- With an index on uid alone the planner's choice depended on table statistics (without
-- them it read every row of the type); (type, uid) answers the lookup from the index
-- whatever the statistics say. The uid-only index served nothing else.
create index oidc_payloads_type_uid_idx on oidc_payloads (type, uid) where uid is not null;
drop index oidc_payloads_uid_idx;
