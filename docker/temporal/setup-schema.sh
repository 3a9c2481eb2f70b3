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

sql "${TEMPORAL_DB:-temporal}" setup-schema -v 0.0
sql "${TEMPORAL_DB:-temporal}" update-schema --schema-name postgresql/v12/temporal
sql "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}" setup-schema -v 0.0
sql "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}" update-schema --schema-name postgresql/v12/visibility
echo "Temporal schemas are up to date"
