#!/bin/sh
# Creates or upgrades Temporal's PostgreSQL schemas (run by the temporal-schema one-shot,
# temporalio/admin-tools image), as infra/temporalServer.ts does for `npm run start:cluster`.
# Idempotent: `setup-schema -v 0.0` only adds the version tables when missing, `update-schema`
# applies the versions not yet applied, from the schemas embedded in temporal-sql-tool. The
# databases themselves are created by docker/postgres/init-databases.sh. Password: $SQL_PASSWORD.
set -eu

sql() {
  temporal-sql-tool --plugin postgres12 --ep "${SQL_HOST:?}" -p "${SQL_PORT:-5432}" \
    -u "${SQL_USER:?}" --db "$@"
}

# Until PostgreSQL answers (up to 60 tries, 2 s apart): a compose implementation that does not wait for the db's
# healthcheck (podman-compose 1.0) starts this before the server listens.
n=1
until sql "${TEMPORAL_DB:-temporal}" setup-schema -v 0.0; do
  if [ "$n" -ge 60 ]; then
    echo "giving up: PostgreSQL at ${SQL_HOST}:${SQL_PORT:-5432}" >&2
    exit 1
  fi
  echo "waiting for PostgreSQL at ${SQL_HOST}:${SQL_PORT:-5432} (attempt $n)"
  n=$((n + 1))
  sleep 2
done
sql "${TEMPORAL_DB:-temporal}" update-schema --schema-name postgresql/v12/temporal
sql "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}" setup-schema -v 0.0
sql "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}" update-schema --schema-name postgresql/v12/visibility
echo "Temporal schemas are up to date"
