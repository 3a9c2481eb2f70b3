/** `npm run test:compose`: docker-compose.yml started with podman-compose; it brings its own stores, so no globalSetup. */
const base = require('./jest.containers.config');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/containers/compose.test.ts'],
  globalSetup: undefined,
  globalTeardown: undefined,
};
