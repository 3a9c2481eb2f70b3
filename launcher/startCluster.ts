import { launch } from './launch';

/** A process count from the environment: a whole number from 1 to 16, else the default. */
function count(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 16) {
    process.stderr.write(`${name}=${raw}: expected a whole number from 1 to 16\n`);
    process.exit(2);
  }
  return value;
}

/**
 * `npm run start:cluster`: the system `npm start` runs, on Temporal's own server with PostgreSQL persistence and
 * several history shards, with REFEREE_WORKERS worker and REFEREE_APIS API processes (2 of each by default).
 */
void launch({
  command: 'npm run start:cluster',
  engine: 'server',
  workers: count('REFEREE_WORKERS', 2),
  apis: count('REFEREE_APIS', 2),
});
