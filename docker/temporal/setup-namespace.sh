#!/bin/sh
# Creates the namespace if missing and registers the workflows' custom search attributes
# (run by the temporal-setup one-shot, temporalio/admin-tools image). Safe to re-run: the
# server skips attributes that already exist; one that exists with another type fails.
#   TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, TEMPORAL_NAMESPACE_RETENTION,
#   TEMPORAL_SEARCH_ATTRIBUTES ("Name=Type Name=Type ...", see workflows/searchAttributes.ts)
set -eu

ns="${TEMPORAL_NAMESPACE:-default}"
retention="${TEMPORAL_NAMESPACE_RETENTION:-720h}"
export TEMPORAL_ADDRESS="${TEMPORAL_ADDRESS:-temporal:7233}"

retry() { # retry <what> <command...>: up to 60 tries, 2 s apart
  what=$1
  shift
  n=1
  until "$@"; do
    if [ "$n" -ge 60 ]; then
      echo "giving up: $what" >&2
      exit 1
    fi
    echo "waiting for $what (attempt $n)"
    n=$((n + 1))
    sleep 2
  done
}

ensure_namespace() {
  temporal operator namespace describe --namespace "$ns" >/dev/null 2>&1 ||
    temporal operator namespace create --namespace "$ns" --retention "$retention"
}

retry "Temporal at $TEMPORAL_ADDRESS" temporal operator cluster health
retry "namespace $ns" ensure_namespace

# --name A --type T --name B --type U ... in one call, and a list filter naming every attribute.
set --
query=""
for pair in ${TEMPORAL_SEARCH_ATTRIBUTES:?}; do
  name=${pair%%=*}
  type=${pair#*=}
  set -- "$@" --name "$name" --type "$type"
  case "$type" in
    Bool) value=true ;;
    Int | Double) value=0 ;;
    Datetime) value="'1970-01-01T00:00:00Z'" ;;
    *) value="'x'" ;;
  esac
  query="${query:+$query OR }$name = $value"
done
retry "search attributes" temporal operator search-attribute create --namespace "$ns" "$@"

# The frontend validates list filters against its namespace cache (refreshed every ~10 s):
# finish only once a filter using every attribute is accepted, so workers never race it.
retry "search attributes to be queryable" \
  temporal workflow list --namespace "$ns" --limit 1 --query "$query"
echo "Namespace $ns is ready with its search attributes"
