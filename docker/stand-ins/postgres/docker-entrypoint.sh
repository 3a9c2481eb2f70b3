#!/bin/bash
# The official postgres image's entrypoint, for what docker-compose.yml uses: on an empty $PGDATA, initdb with
# POSTGRES_USER / POSTGRES_PASSWORD (scram-sha-256 over TCP from anywhere, trust on the socket), POSTGRES_DB
# created, /docker-entrypoint-initdb.d/*.sh (executed if executable, else sourced) and *.sql run against a
# socket-only server; then `postgres "$@"` as the postgres user.
set -Eeo pipefail

if [ "${1:0:1}" = '-' ]; then
  set -- postgres "$@"
fi

if [ "$1" = 'postgres' ] && [ "$(id -u)" = '0' ]; then
  install -d -o postgres -g postgres -m 0700 "$PGDATA"
  chown -R postgres:postgres "$PGDATA"
  install -d -o postgres -g postgres -m 3777 /var/run/postgresql
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi

if [ "$1" = 'postgres' ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_USER:=postgres}"
  : "${POSTGRES_DB:=$POSTGRES_USER}"
  export POSTGRES_USER POSTGRES_DB
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo 'error: POSTGRES_PASSWORD is empty (the official image refuses to start without it, too)' >&2
    exit 1
  fi
  initdb --username="$POSTGRES_USER" --pwfile=<(printf '%s\n' "$POSTGRES_PASSWORD") \
    --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA"
  printf '\nhost all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
  printf "\nlisten_addresses = '*'\n" >>"$PGDATA/postgresql.conf"

  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p 5432" -w start
  export PGUSER="$POSTGRES_USER" PGPASSWORD="$POSTGRES_PASSWORD"
  if [ "$POSTGRES_DB" != 'postgres' ]; then
    psql -v ON_ERROR_STOP=1 --dbname postgres -c "CREATE DATABASE \"$POSTGRES_DB\""
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh)
        if [ -x "$f" ]; then
          echo "$0: running $f"
          "$f"
        else
          echo "$0: sourcing $f"
          . "$f"
        fi
        ;;
      *.sql)
        echo "$0: running $f"
        psql -v ON_ERROR_STOP=1 --dbname "$POSTGRES_DB" -f "$f"
        ;;
      *) [ -e "$f" ] && echo "$0: ignoring $f" ;;
    esac
  done
  unset PGPASSWORD
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo 'PostgreSQL init process complete; ready for start up.'
fi

exec "$@"
