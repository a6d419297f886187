-- Issue 57: OCSP beside the CRLs. One row per Diia signer's certificate the instances watch (seen in a
-- callback, or configured in DIIA_SIGNER_CERTIFICATES): the certificate itself, so every instance refreshes
-- the same ones in the background, and the last good OCSP answer about it. An answer is signed by the CA
-- (or its delegated OCSP signer), so a copy read back is verified again before it counts; `kpi-id doctor`
-- reads the table to warn when answers are past their nextUpdate. Expand only: an older release ignores it.
create table diia_ocsp_answers (
  certificate_key text primary key,
  certificate bytea not null,
  last_seen_at timestamptz not null,
  responder text,
  answer bytea,
  status text,
  this_update timestamptz,
  next_update timestamptz,
  fetched_at timestamptz
);
create index diia_ocsp_answers_last_seen on diia_ocsp_answers (last_seen_at);
