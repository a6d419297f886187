#!/bin/sh
# The first start makes the cluster with POSTGRES_USER (password POSTGRES_PASSWORD) and POSTGRES_DB, as the
# official postgres image does; every start then runs PostgreSQL as the postgres user, listening on all addresses.
set -eu
bin=/usr/lib/postgresql/15/bin
data=/var/lib/postgresql/data
as_postgres() { setpriv --reuid=postgres --regid=postgres --init-groups "$@"; }
mkdir -p "$data" /run/postgresql
chown postgres:postgres "$data" /run/postgresql
chmod 700 "$data"
if [ ! -s "$data/PG_VERSION" ]; then
  password_file=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$password_file"
  chown postgres "$password_file"
  as_postgres "$bin/initdb" --pgdata="$data" --username="$POSTGRES_USER" --pwfile="$password_file" \
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f "$password_file"
  echo "host all all all scram-sha-256" >> "$data/pg_hba.conf"
  as_postgres "$bin/pg_ctl" --pgdata="$data" --options="-c listen_addresses=''" --wait start >/dev/null
  as_postgres psql --username="$POSTGRES_USER" --dbname=postgres --quiet \
    --command="create database \"$POSTGRES_DB\""
  as_postgres "$bin/pg_ctl" --pgdata="$data" --mode=fast --wait stop >/dev/null
fi
exec setpriv --reuid=postgres --regid=postgres --init-groups "$bin/postgres" -D "$data" -c listen_addresses='*'
