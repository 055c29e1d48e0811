// Where the tests find the extension's manifest and the DESIGN.md fixture. CTest compiles the
// tests into the build tree and passes the locations in the environment; `npm test` runs them
// from out/test/ and falls back to paths relative to the source tree.
import * as path from 'path';

export const vscodeDir = process.env['GREENLIGHT_VSCODE_DIR'] ?? path.resolve(__dirname, '..', '..');
export const designFixture =
  process.env['GREENLIGHT_DESIGN_SETTINGS'] ??
  path.resolve(vscodeDir, '..', '..', 'tests', 'editors', 'fixtures', 'design-settings.json');
// Optional: the DESIGN.md the fixture was written from; when present the fixture is checked
// against it so a contract change cannot leave the extension behind silently.
export const designMd = process.env['GREENLIGHT_DESIGN_MD'];
