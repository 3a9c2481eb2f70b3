/** The help text; `referee` and `npm run ops --` take the same commands. */
export const USAGE = `Usage: referee <command> [options]      (or: npm run ops -- <command> [options])

Commands:
  migrate                         Bring the database schema up to date (the only command that migrates).
  members list [--service S]      List members with role, state and active key count.
  members upsert <file>           Add the members in <file> and update changed ones; disables nobody.
  members sync <file> [--dry-run] Make the members equal <file>: also disables every member absent from it.
                                  --dry-run prints who would be created, changed and disabled; changes nothing.
                                  <file>: JSON {"math": [...], "genomics": [...]} (example: demo/members.json).
  keys create --service <math|genomics> --member <identity-id>
              [--name N] [--role REVIEWER|OWNER|ADMIN] [--scopes a,b] [--expires-in-days 1-365]
                                  Mint an API key for the member with that identity id (the "identity_id" of
                                  "members list", e.g. "idp|ada"); the token is printed once. Without --scopes
                                  the key gets every scope; an empty or unknown scope list is refused.
  keys list [--service S]         List keys (never their secrets), newest first, with their state.
  keys revoke <key-id>            Revoke a key; the API refuses it from its next request on.
  webhooks list|create|read|update|pause|resume|delete|rotate|deliveries|redeliver --service <math|genomics>
                                  Manage the service's webhook endpoints as its API does (docs/webhooks.md):
    webhooks list                 Endpoints, never a secret.
    webhooks create --url U --events <type,type|all> [--description D]
                                  Register an endpoint; its signing secret is printed once.
    webhooks read|pause|resume|delete <endpoint-id>
    webhooks update <endpoint-id> [--url U] [--events ...] [--description D]
    webhooks rotate <endpoint-id> [--grace-hours 0-168]
                                  A new secret, printed once; the old one signs too for the grace (default 24).
    webhooks deliveries <endpoint-id> [--limit 1-100]
                                  Deliveries newest first with their attempts (default 20).
    webhooks redeliver <endpoint-id> <delivery-id>
                                  Send an ended delivery again (same webhook-id).
  import <bundle-dir> [--detach]  Import a math run or genomics bundle (by its manifest's "format") through its
                                  Temporal import workflow, with progress on stderr.
  reconcile [--service math|genomics] [--repair] [--restart]
                                  Compare every task's projection with its workflow (the source of truth);
                                  --repair rewrites diverged ones from it, audited in projection_repairs.
  verify-storage [--rate <MiB/s>] [--orphan-grace <minutes>] [--restart]
                                  Read every stored object and check its size and SHA-256; report missing,
                                  altered and orphaned objects (also written to storage_audit). An unnamed
                                  object modified within --orphan-grace minutes (default 15) is not orphaned.
  status                          Each dependency up or down with its address, schema version, workflow
                                  counts, imports, keys expiring within 7 days, and each API process's
                                  request rate and p99 over the last minute (from its metrics).
                                  All three exit with 1 when something is wrong; reconcile and verify-storage
                                  resume an interrupted run unless --restart (docs/operator-tools.md).

Options:
  --json        stdout is exactly one JSON document: {"ok":true,...} or {"ok":false,"error":{...}}.
                import --json also writes its progress to stderr as JSON Lines.
  -h, --help    This text.

Connection: DATABASE_URL, TEMPORAL_ADDRESS (import, reconcile, status, webhook changes) and the other variables of the
environment win; what is unset is read from .referee/connection.json, written by a running "npm start"
(REFEREE_DATA_DIR moves it).
Exit codes: 0 done, 1 failed (named on stderr), 2 usage error (bad command, argument or option).`;
