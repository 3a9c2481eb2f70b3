/** The container suites (test/containers/): jest's own settings, with only those files. */
const base = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/'],
  testMatch: ['<rootDir>/test/containers/**/*.test.ts'],
  maxWorkers: 1,
};
