#!/bin/bash
# Runs once, on the first start of an empty data volume (docker-entrypoint-initdb.d):
# one login role and database for the app, one role owning Temporal's two databases.
# Changing the passwords later means ALTER ROLE (or a fresh volume), not just new env values.
set -euo pipefail

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v referee_password="$REFEREE_DB_PASSWORD" \
  -v temporal_password="$TEMPORAL_DB_PASSWORD" <<'SQL'
CREATE ROLE referee LOGIN PASSWORD :'referee_password';
CREATE ROLE temporal LOGIN PASSWORD :'temporal_password';
CREATE DATABASE referee OWNER referee;
-- Owned by `temporal` so its schema tool can create tables and the trusted btree_gin extension.
CREATE DATABASE temporal OWNER temporal;
CREATE DATABASE temporal_visibility OWNER temporal;
SQL
