/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/__tests__'],
  testMatch: ['**/__tests__/**/*.test.js', '**/?(*.)spec.js'],
  clearMocks: true,
  // __tests__/modules.test.js loads src/ modules by bare name ('format'): jest resolves them from
  // here, greenlight's static map cannot, and asks jest which tests load a file (issue 33).
  moduleDirectories: ['node_modules', '<rootDir>/src'],
};
