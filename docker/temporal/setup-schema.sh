#!/bin/sh
# Creates or upgrades Temporal's PostgreSQL schemas (run by the temporal-schema one-shot,
# temporalio/admin-tools image). Idempotent: `setup-schema -v 0.0` only adds the version
# tables when missing, `update-schema` applies the versions not yet applied. The databases
# themselves are created by docker/postgres/init-databases.sh. Password: $SQL_PASSWORD.
set -eu

schema_root=/etc/temporal/schema/postgresql/v12
sql() {
  temporal-sql-tool --plugin postgres12 --ep "${SQL_HOST:?}" -p "${SQL_PORT:-5432}" \
    -u "${SQL_USER:?}" --db "$@"
}

sql "${TEMPORAL_DB:-temporal}" setup-schema -v 0.0
sql "${TEMPORAL_DB:-temporal}" update-schema -d "$schema_root/temporal/versioned"
sql "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}" setup-schema -v 0.0
sql "${TEMPORAL_VISIBILITY_DB:-temporal_visibility}" update-schema -d "$schema_root/visibility/versioned"
echo "Temporal schemas are up to date"
