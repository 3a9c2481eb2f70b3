/** What globalSetup started, handed to each test file through environment variables. */
export interface TestEnv {
  temporalAddress: string;
  s3Endpoint: string;
  s3AccessKeyId: string;
  s3SecretAccessKey: string;
  pgAdminUrl: string;
  templateDatabase: string;
  workflowBundlePath: string;
}

const KEY = 'REFEREE_TEST_ENV';

export function writeTestEnv(env: TestEnv): void {
  process.env[KEY] = JSON.stringify(env);
}

export function readTestEnv(): TestEnv {
  const raw = process.env[KEY];
  if (!raw)
    throw new Error('The test environment is missing: run the tests with jest (globalSetup starts it).');
  return JSON.parse(raw) as TestEnv;
}
