// The scenarios, each what a user does and sees in VS Code with the packaged extension and
// the real `greenlight lsp`, in a copy of examples/ (python/textutil.py has a failing test,
// python/triangle.py a comment ready for generation). Each asserts on the page's text, saves
// PNGs under the build tree and leaves the files as it found them on disk. The model is
// tests/fakes/scripted_model.py with model-script.json (triangular: wrong once, right on the
// feedback; slugify: right on its failure; a comment saying "(slowly)": a reply that stalls).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const kFailure = /test_slugify: AssertionError: slugify\("Hello World"\) returned 'hello_world', expected 'hello-world'/;
const kBuggyLine = 'return "_".join(words)  # bug: slugs use "-"';

// Under textutil.py's file row in the Problems panel: the failing assertion placed on line 6 (the
// return that produced the wrong value), then its related location, the assertion in the test.
// (The test file's own row, the same failure at the assertion, comes first.)
function assertSlugifyProblem(rows) {
  const all = JSON.stringify(rows);
  const file = rows.findIndex((r) => /^textutil\.py/.test(r));
  assert.ok(file >= 0, `no textutil.py row in Problems: ${all}`);
  const problem = rows[file + 1] ?? '';
  assert.match(problem, kFailure, `the failing assertion is not listed under textutil.py: ${all}`);
  assert.match(problem, /\[Ln 6, Col 5\]$/, `the problem is not placed on line 6: ${all}`);
  assert.match(rows[file + 2] ?? '', /^test_textutil\.py \[Ln 5, Col 5\] ?: assertion here$/, `the related location is not the assertion in test_textutil.py: ${all}`);
}

async function assertSquiggleOnBuggyLine(wb) {
  const squiggles = await wb.waitForSquiggles((lines) => lines.length === 1 && lines[0].text.trim() === kBuggyLine);
  assert.deepEqual(squiggles.map((s) => s.text.trim()), [kBuggyLine], `the error squiggles are on ${JSON.stringify(squiggles)}`);
  assert.equal(squiggles[0].line, 6);
}

// The greenlight part of a status bar text.
const statusOf = (text) =>
  /Greenlight: Running tests: \d+ passed, \d+ failed(?: \(cached\))?|\w+: \d+\/\d+ tests passed in \d+ rounds?|Greenlight: \w+: cancelled; nothing applied/.exec(text)?.[0] ?? text;

const hasSlugifyProblem = (rows) => rows.some((r) => kFailure.test(r)) && rows.some((r) => /assertion here/.test(r));

// 1. Run the tests of python/textutil.py from the CodeLens and from the command palette.
export async function runTests({ wb }) {
  await wb.openFile('textutil.py');
  await wb.showProblems();
  await wb.focusEditor();
  await wb.waitFor('the "Run tests" CodeLens over slugify', () =>
    [...document.querySelectorAll('.editor-group-container.active .codelens-decoration a')].some((a) => /Run tests/.test(a.textContent)));

  // A test run's result is asserted in the status bar, not its notification: VS Code opens a
  // progress notification only when the work outlasts a short delay, and a warm run does not.
  let mark = await wb.mark();
  await wb.clickCodeLens(/Run tests/, 0);
  // The lens over slugify runs the one test that exercises slugify.
  const end = await wb.seen('statusbar', /Greenlight: Running tests: 0 passed, 1 failed/, mark, 'the test run\'s result in the status bar');
  let rows = await wb.waitForProblems('the failing assertion in Problems', hasSlugifyProblem);
  assertSlugifyProblem(rows);
  await assertSquiggleOnBuggyLine(wb);
  await wb.waitFor('the result CodeLens', () =>
    [...document.querySelectorAll('.editor-group-container.active .codelens-decoration')].some((a) => /1 failed/.test(a.textContent)));
  const lenses = await wb.codeLenses();
  await wb.shot('1a-run-tests-codelens');

  // The palette command runs the tests near the cursor: on the module docstring, all of the
  // file's tests.
  await wb.goToLine(1);
  mark = await wb.mark();
  await wb.command('Greenlight: Run Nearby Tests');
  const end2 = await wb.seen('statusbar', /Greenlight: Running tests: 1 passed, 1 failed/, mark, 'the palette run\'s result in the status bar');
  rows = await wb.waitForProblems('the failing assertion in Problems', hasSlugifyProblem);
  assertSlugifyProblem(rows);
  await assertSquiggleOnBuggyLine(wb);
  await wb.shot('1b-run-tests-palette');

  // slugify's tests again, unchanged: answered from the server's cache in milliseconds, before
  // VS Code has answered window/workDoneProgress/create. The result must still show (the server
  // once dropped such a progress, and the user saw nothing at all).
  await wb.goToLine(6);
  mark = await wb.mark();
  await wb.command('Greenlight: Run Nearby Tests');
  await wb.seen('statusbar', /Greenlight: Running tests: 0 passed, 1 failed \(cached\)/, mark, 'the cached run\'s result in the status bar');
  return `Problems: ${rows.filter((r) => kFailure.test(r) || /assertion here/.test(r)).join(' | ')}; status bar: "${statusOf(end)}", then "${statusOf(end2)}"; lenses: ${lenses.join(', ')}`;
}

// 2. Fix the code in the editor without saving, run again: the problem disappears.
export async function fixUnsaved({ wb, workspace }) {
  await wb.openFile('textutil.py');
  await wb.replaceLine(6, 'return "-".join(words)');
  assert.ok(await wb.isDirty(), 'the edited file should be unsaved');
  const mark = await wb.mark();
  await wb.command('Greenlight: Run Nearby Tests');
  const end = await wb.seen('statusbar', /Greenlight: Running tests: 1 passed, 0 failed/, mark, 'the passing run in the status bar');
  const rows = await wb.waitForProblems('the problem to disappear', (rows) => !rows.some((r) => /hello_world|assertion here/.test(r)));
  assert.deepEqual(await wb.waitForSquiggles((lines) => lines.length === 0), [], 'squiggles left after the passing run');
  await waitForLens(wb, /1 passed/, 'the result CodeLens over slugify to say "1 passed"');
  assert.ok(await wb.isDirty(), 'the run must not save the file');
  const onDisk = fs.readFileSync(path.join(workspace, 'python/textutil.py'), 'utf8');
  assert.ok(onDisk.includes(kBuggyLine), 'the file on disk changed; the fix was to stay unsaved');
  await wb.shot('2-fixed-unsaved');
  await wb.command('File: Revert File');
  await wb.waitForEditorText('the reverted text', (t) => t.includes(kBuggyLine));
  return `status bar: "${statusOf(end)}"; Problems rows after: ${rows.length}`;
}

// 3. Generate triangular() from its comment: Ctrl+. lists the action, the notification shows the
// rounds, the edit lands, one Ctrl+Z undoes it whole.
export async function generate({ wb, workspace, readme }) {
  await wb.openFile('triangle.py');
  const before = await wb.editorText();
  const onDisk = fs.readFileSync(path.join(workspace, 'python/triangle.py'), 'utf8');
  await wb.goToLine(5);
  const actions = await wb.openCodeActions(/Generate code from comment, verified by tests/);
  const mark = await wb.mark();
  await wb.chooseCodeAction(/Generate code from comment, verified by tests/);
  await wb.seen('toast', /Greenlight: Generating.*round 1\/3/, mark, 'round 1 in the progress notification');
  await wb.seen('toast', /Greenlight: Generating.*round 2\/3/, mark, 'round 2 in the progress notification');
  const progressShot = await wb.shot('3b-generate-round-2');
  const end = await wb.seen('statusbar', /triangular: 2\/2 tests passed in 2 rounds/, mark, 'the outcome in the status bar');
  const after = await wb.waitForEditorText('the generated function', (t) => /def triangular\(n\):\n\s+if n <= 0:\n\s+return 0\n\s+return n \* \(n \+ 1\) \/\/ 2/.test(t));
  assert.ok(after.startsWith(before.replace(/\n+$/, '')), 'the code was not inserted after the comment, or something else changed');
  const rounds = (await wb.seenTexts('toast', mark)).filter((t) => /round \d\/3/.test(t));
  await wb.shot('3c-generate-applied');
  fs.copyFileSync(progressShot, readme);

  await wb.focusEditor();
  await wb.keyboard.press('Control+Z');
  const undone = await wb.waitForEditorText('one Ctrl+Z to undo the whole edit', (t) => t === before);
  assert.equal(undone, before);
  assert.ok(!(await wb.isDirty()), 'after one undo the file should be as saved');
  assert.equal(fs.readFileSync(path.join(workspace, 'python/triangle.py'), 'utf8'), onDisk, 'generate wrote the file on disk');
  const steps = [...new Set(rounds.map((t) => t.replace(/^.*?(round)/, '$1').replace(/writing… \d+ tokens?/, 'writing…')))];
  return `actions: ${actions.join(' | ')}; progress: ${steps.join(' → ')}; status bar: "${statusOf(end)}"`;
}

// 4. Quick fix on the failing test's diagnostic: the function is fixed, the problem disappears.
export async function quickFix({ wb }) {
  await wb.openFile('textutil.py');
  // A line of our own at the end, unsaved, so this run is a real one, not scenario 1's cached result.
  await wb.goToLine(11);
  await wb.keyboard.insertText('# scenario 4');
  await wb.goToLine(6);
  let mark = await wb.mark();
  await wb.command('Greenlight: Run Nearby Tests');
  await wb.seen('statusbar', /Greenlight: Running tests: 0 passed, 1 failed/, mark, 'the failing run in the status bar');
  await wb.waitForProblems('the failing assertion in Problems', hasSlugifyProblem);
  // Into the diagnostic's range (it starts at the `return`, column 5).
  await wb.keyboard.press('Home');
  const actions = await wb.openCodeActions(/Fix slugify\(\) until test_slugify passes/);
  await wb.shot('4a-quick-fix-menu');
  mark = await wb.mark();
  await wb.chooseCodeAction(/Fix slugify\(\) until test_slugify passes/);
  await wb.seen('toast', /Greenlight: Fixing slugify\(\)/, mark, 'the "Fixing slugify()" notification');
  const end = await wb.seen('statusbar', /slugify: 1\/1 tests passed in 1 round/, mark, 'the fix\'s outcome in the status bar');
  const fixed = await wb.waitForEditorText('the fixed function', (t) => t.includes('return "-".join(words)') && !t.includes('"_"'));
  await wb.waitForProblems('the problem to disappear', (rows) => !rows.some((r) => /hello_world|assertion here/.test(r)));
  assert.deepEqual(await wb.waitForSquiggles((lines) => lines.length === 0), [], 'squiggles left after the fix');
  await waitForLens(wb, /1 passed/, 'the result CodeLens over slugify to say "1 passed" after the fix');
  await wb.shot('4b-quick-fix-applied');
  await wb.command('File: Revert File');
  await wb.waitForEditorText('the reverted text', (t) => t.includes(kBuggyLine));
  return `actions: ${actions.join(' | ')}; status bar: "${statusOf(end)}"; slugify now: ${fixed.split('\n').filter((l) => /join/.test(l))[0]?.trim()}`;
}

// 5. Cancel a slow generation from the notification: nothing changes in the file.
export async function cancel({ wb, workspace, modelLog }) {
  await wb.openFile('triangle.py');
  await wb.goToLine(5);
  await wb.keyboard.press('End');
  await wb.keyboard.insertText(' (slowly)');
  // The model reads the typed words; the editor shows them a frame later on a loaded machine.
  const before = await wb.waitForEditorText('the typed " (slowly)"', (t) => /0 for n <= 0\. \(slowly\)/.test(t));
  await wb.openCodeActions(/Generate code from comment, verified by tests/);
  const mark = await wb.mark();
  await wb.chooseCodeAction(/Generate code from comment, verified by tests/);
  await wb.seen('toast', /Greenlight: Generating.*round 1\/3/, mark, 'the generation\'s notification');
  // The scripted model has answered its first piece and stalls: the request is in flight.
  await waitForFile(modelLog, (text) => text.includes('(slowly)'), wb.timeoutMs);
  await wb.shot('5a-cancel-before');
  await wb.clickToastButton(/Greenlight: Generating/, 'Cancel');
  const end = await wb.seen('statusbar', /Greenlight: generation: cancelled; nothing applied/, mark, 'the cancelled outcome in the status bar');
  await wb.waitFor('the notification to close', () => ![...document.querySelectorAll('.notification-toast')].some((t) => /Generating/.test(t.innerText)));
  assert.equal(await wb.editorText(), before, 'the editor text changed after the cancelled generation');
  await wb.shot('5b-cancel-after');
  await wb.command('File: Revert File');
  const onDisk = fs.readFileSync(path.join(workspace, 'python/triangle.py'), 'utf8');
  assert.ok(!onDisk.includes('def triangular'), 'the cancelled generation wrote the file on disk');
  return `status bar: "${statusOf(end)}"`;
}

// 6. No provider configured: one clear message that says how to configure one.
export async function noProvider({ wb }) {
  await wb.openFile('triangle.py');
  const before = await wb.editorText();
  await wb.goToLine(5);
  await wb.openCodeActions(/Generate code from comment, verified by tests/);
  const mark = await wb.mark();
  await wb.chooseCodeAction(/Generate code from comment, verified by tests/);
  const message = await wb.seen('toast', /provider/i, mark, 'the "no provider" message');
  // The request has ended once nothing runs any more (no spinner, no progress): no second
  // message may follow.
  await wb.waitFor('the generation to end', () => {
    const bar = document.querySelector('.part.statusbar').innerText;
    return !/generating…|Generating/.test(bar) && ![...document.querySelectorAll('.notification-toast')].some((t) => /Generating/.test(t.innerText));
  });
  const end = (await wb.seenTexts('statusbar', mark)).pop();
  const toasts = await wb.toasts();
  const aboutProvider = toasts.filter((t) => /provider|OPENAI_API_KEY|baseUrl/i.test(t));
  assert.equal(aboutProvider.length, 1, `expected one message about the provider, saw ${JSON.stringify(toasts)}`);
  assert.match(message, /OPENAI_API_KEY|ANTHROPIC_API_KEY/, 'the message does not say which key to set');
  assert.match(message, /greenlight\.baseUrl|baseUrl/, 'the message does not mention greenlight.baseUrl');
  assert.equal(await wb.editorText(), before, 'the editor text changed');
  await wb.shot('6-no-provider');
  return `message: "${message}"; status bar: "${statusOf(end)}"`;
}

// 7. The Testing view lists greenlight's tests (greenlight/listTests) and a run from it shows
// each test's result: test_slugify failed, test_initials passed, with durations.
export async function testingView({ wb, shots }) {
  await wb.openFile('textutil.py');
  await wb.command('View: Show Testing');
  // The workspace's tests are listed under their folders (scenario 12): python/ -> the file.
  await wb.waitForTestRow(/^(python|test_textutil\.py)/, 'the python folder or the test file in the Testing view');
  await wb.expandTestRows();
  const file = await wb.waitForTestRow(/^test_textutil\.py/, 'the test file in the Testing view');
  await wb.expandTestRows();
  await wb.waitForTestRow(/^test_slugify/, 'test_slugify in the Testing view');
  await wb.waitForTestRow(/^test_initials/, 'test_initials in the Testing view');
  // The file's tests (Run All would run the whole workspace's, three languages).
  await wb.testRowMenu(/^test_textutil\.py/);
  const mark = await wb.mark();
  await wb.chooseMenuItem('Run Test');
  await wb.seen('statusbar', /Greenlight: Running tests: 1 passed, 1 failed/, mark, 'the run\'s result in the status bar');
  await wb.expandTestRows();
  const failed = await wb.waitForTestRow(/^test_slugify/, 'test_slugify failed', 'failed');
  const passed = await wb.waitForTestRow(/^test_initials/, 'test_initials passed', 'passed');
  const rows = await wb.testRows();
  await wb.waitFor('the runs\' progress notifications to close', () =>
    ![...document.querySelectorAll('.notification-toast')].some((t) => /Running tests/.test(t.innerText)));
  fs.copyFileSync(await wb.shot('7-testing-view'), path.join(shots, 'testing-view.png'));
  return `file row: "${file.label}"; after the run: ${rows.map((r) => `${r.label} [${r.state}]`).join(', ')}; failed: ${failed.label}; passed: ${passed.label}`;
}

// 8. A failing test's peek: the message at the assertion and VS Code's expected / actual diff.
export async function testingPeek({ wb, shots }) {
  await wb.openFile('test_textutil.py');
  await wb.command('Test: Run Tests in Current File');
  // Not the status bar: this run is served from the cache and can repeat the text scenario 7
  // left there, which changes nothing the recorder sees (it timed out that way once in CI). The
  // peek below waits for its own content; the previous run's result is the same.
  await wb.waitFor('the run\'s progress notification to close', () =>
    ![...document.querySelectorAll('.notification-toast')].some((t) => /Running tests/.test(t.innerText)));
  await wb.goToLine(5);
  await wb.command('Test: Peek Output');
  const peek = await wb.waitForPeek('the test peek with its diff', ({ text, diff }) => /hello-world/.test(diff) && /hello_world/.test(diff) && /expected/i.test(text + diff));
  await wb.waitFor('the run\'s progress notification to close', () =>
    ![...document.querySelectorAll('.notification-toast')].some((t) => /Running tests/.test(t.innerText)));
  fs.copyFileSync(await wb.shot('8-testing-peek'), path.join(shots, 'testing-peek.png'));
  await wb.keyboard.press('Escape');
  return `peek: "${peek.text.slice(0, 120)}"; diff: ${JSON.stringify(peek.diff.slice(0, 120))}`;
}

// 9. Run one test from the gutter: its ▶ runs that test only (test_initials passes).
export async function testingGutter({ wb }) {
  await wb.openFile('test_textutil.py');
  const mark = await wb.mark();
  await wb.clickTestGutter(8);
  const end = await wb.seen('statusbar', /Greenlight: Running tests: 1 passed, 0 failed/, mark, 'the one-test run in the status bar');
  const glyph = await wb.waitForGutterState(8, 'passed');
  await wb.shot('9-testing-gutter');
  return `status bar: "${statusOf(end)}"; gutter on line 8: ${glyph}`;
}

// 10. "Fix" from a failed test's context menu in the Testing view: slugify is fixed, the test
// turns green.
export async function testingFix({ wb }) {
  await wb.openFile('textutil.py');
  await wb.command('View: Show Testing');
  await wb.waitForTestRow(/^(python|test_textutil\.py)/, 'the python folder or the test file in the Testing view');
  await wb.expandTestRows();
  await wb.waitForTestRow(/^test_textutil\.py/, 'the test file in the Testing view');
  await wb.testRowMenu(/^test_textutil\.py/);
  let mark = await wb.mark();
  await wb.chooseMenuItem('Run Test');
  await wb.seen('statusbar', /Greenlight: Running tests: 1 passed, 1 failed/, mark, 'the failing run in the status bar');
  await wb.expandTestRows();
  await wb.waitForTestRow(/^test_slugify/, 'test_slugify failed', 'failed');
  const items = await wb.testRowMenu(/^test_slugify/);
  mark = await wb.mark();
  await wb.chooseMenuItem('Fix');
  await wb.seen('toast', /Greenlight: Fixing slugify\(\)/, mark, 'the "Fixing slugify()" notification');
  const end = await wb.seen('statusbar', /slugify: 1\/1 tests passed in 1 round/, mark, 'the fix\'s outcome in the status bar');
  await wb.focusEditor();
  await wb.waitForEditorText('the fixed function', (t) => t.includes('return "-".join(words)'));
  // The fix's own run (trigger "fix") reports the test green in the view.
  await wb.waitForTestRow(/^test_slugify/, 'test_slugify passing after the fix', 'passed');
  await wb.shot('10-testing-fix');
  await wb.command('File: Revert File');
  await wb.waitForEditorText('the reverted text', (t) => t.includes(kBuggyLine));
  return `context menu: ${items.join(' | ')}; status bar: "${statusOf(end)}"`;
}

// 11. The "✨ Generate" lens over a stub, clicked: the stub is implemented, and the lens goes with
// it (lenses follow the text once the edit lands; issue 28 saw it stay). The stub and its test are
// written into the lane's copy of examples/ before VS Code starts (prepareWorkspace).
export async function generateLens({ wb, workspace }) {
  await wb.openFile('cube.py');
  await wb.waitFor('the "✨ Generate" lens over the stub', () =>
    [...document.querySelectorAll('.editor-group-container.active .codelens-decoration a')].some((a) => /Generate/.test(a.textContent)));
  const before = await wb.codeLenses();
  const mark = await wb.mark();
  await wb.clickCodeLens(/Generate/, 0);
  const end = await wb.seen('statusbar', /cube: 1\/1 tests passed in 1 round/, mark, 'the generation\'s outcome in the status bar');
  await wb.waitForEditorText('the implemented cube()', (t) => t.includes('return x * x * x'));
  await wb.waitFor('the "✨ Generate" lens to go and "▶ Run tests" to come over cube()', () => {
    const lenses = [...document.querySelectorAll('.editor-group-container.active .codelens-decoration a')].map((a) => a.textContent);
    return !lenses.some((t) => /Generate/.test(t)) && lenses.some((t) => /Run tests/.test(t));
  });
  const after = await wb.codeLenses();
  await wb.shot('11-generate-lens-after');
  // Closed and opened again after the code changed on disk: VS Code opens it at version 1 again,
  // the version the stub had; the lenses must be the new text's (the server once reused the
  // stub's and showed "✨ Generate" over the implemented function).
  await wb.focusEditor();
  await wb.keyboard.press('Control+S');
  await wb.waitFor('the file to be saved', () => !document.querySelector('.tab.active')?.classList.contains('dirty'));
  await wb.command('View: Close All Editors');
  fs.writeFileSync(path.join(workspace, 'python/cube.py'), '"""A stub for the lens scenario."""\n\n\n# Return x cubed.\ndef cube(x):\n    pass\n');
  await wb.openFile('cube.py');
  await wb.waitFor('the "✨ Generate" lens over the stub again', () =>
    [...document.querySelectorAll('.editor-group-container.active .codelens-decoration a')].some((a) => /Generate/.test(a.textContent)));
  await wb.command('View: Close All Editors');
  fs.writeFileSync(path.join(workspace, 'python/cube.py'), '"""A stub for the lens scenario."""\n\n\n# Return x cubed.\ndef cube(x):\n    return x * x * x\n');
  await wb.openFile('cube.py');
  await wb.waitForEditorText('the implemented cube() from disk', (t) => t.includes('return x * x * x'));
  await wb.waitFor('"▶ Run tests" and no "✨ Generate" over cube() after reopening', () => {
    const lenses = [...document.querySelectorAll('.editor-group-container.active .codelens-decoration a')].map((a) => a.textContent);
    return !lenses.some((t) => /Generate/.test(t)) && lenses.some((t) => /Run tests/.test(t));
  });
  const reopened = await wb.codeLenses();
  await wb.command('View: Close All Editors');
  return `lenses before: ${before.join(', ')}; after: ${after.join(', ')}; reopened: ${reopened.join(', ')}; status bar: "${statusOf(end)}"`;
}

// 12. Before any file is opened, the Testing view lists the workspace's tests (the server's
// greenlight/listWorkspaceTests): folders, test files and their tests in the three languages. A
// run from the view lands on the listed items (one row per test: the ids agree), and a test file
// created or deleted on disk appears or goes without opening anything.
export async function workspaceTests({ wb, workspace }) {
  const openEditors = () => wb.page.evaluate(() => document.querySelectorAll('.editor-group-container .tab').length);
  assert.equal(await openEditors(), 0, 'an editor is open before the scenario');
  // The beaker in the activity bar: in a window where nothing was opened yet the palette has
  // no "View: Show Testing" (code-server 4.9x).
  await wb.page.locator('.activitybar .action-label[aria-label^="Testing"]').first().click();
  await wb.waitForTestRow(/^python$/, 'the python folder in the Testing view');
  await wb.expandTestRows();
  for (const [re, what] of [
    [/^javascript$/, 'the javascript folder'],
    [/^cpp$/, 'the cpp folder'],
    [/^test_textutil\.py/, 'test_textutil.py'],
    [/^test_slugify/, 'test_slugify'],
    [/^test_initials/, 'test_initials'],
    [/^test_small/, 'test_small (test_triangle.py)'],
    [/^mathutil\.test\.js/, 'mathutil.test.js'],
    [/^gcd\b/, 'the gcd test of mathutil.test.js'],
    [/^mathutil_test\.cpp/, 'mathutil_test.cpp'],
  ]) {
    await wb.expandTestRows();
    await wb.waitForTestRow(re, `${what} in the Testing view before any file is opened`);
  }
  const listed = await wb.testRows();
  assert.equal(await openEditors(), 0, 'listing the tests opened an editor');
  await wb.shot('12a-workspace-tests');

  // Run one listed file from its context menu: the results land on the listed rows.
  await wb.testRowMenu(/^test_textutil\.py/);
  const mark = await wb.mark();
  await wb.chooseMenuItem('Run Test');
  await wb.seen('statusbar', /Greenlight: Running tests: 1 passed, 1 failed/, mark, 'the run\'s result in the status bar');
  await wb.waitForTestRow(/^test_slugify/, 'test_slugify failed', 'failed');
  await wb.waitForTestRow(/^test_initials/, 'test_initials passed', 'passed');
  const rows = await wb.testRows();
  for (const name of ['test_slugify', 'test_initials']) {
    assert.equal(rows.filter((r) => r.label.startsWith(name)).length, 1, `${name}: one row (a result on an unlisted id adds a second): ${JSON.stringify(rows)}`);
  }

  // Created on disk: listed; deleted: gone.
  const extra = path.join(workspace, 'python/test_extra.py');
  fs.writeFileSync(extra, 'def test_extra_added():\n    assert True\n');
  try {
    await wb.waitForTestRow(/^test_extra\.py/, 'test_extra.py, created on disk, in the Testing view');
    await wb.expandTestRows();
    await wb.waitForTestRow(/^test_extra_added/, 'test_extra_added in the Testing view');
  } finally {
    fs.rmSync(extra, { force: true });
  }
  const { value, held } = await wb.poll(() => wb.testRows(), (r) => !r.some((row) => /^test_extra/.test(row.label)), wb.timeoutMs);
  assert.ok(held, `test_extra.py, deleted on disk, is still in the Testing view: ${JSON.stringify(value)}`);
  assert.equal(await openEditors(), 0, 'an editor was opened');
  // The next scenario starts with no notification of this run left over.
  await wb.waitFor('the run\'s progress notification to close', () =>
    ![...document.querySelectorAll('.notification-toast')].some((t) => /Running tests/.test(t.innerText)));
  await wb.shot('12b-workspace-tests-run');
  return `listed before any file was opened: ${listed.map((r) => r.label).join(', ')}; after the run: ${rows
    .filter((r) => /^test_(slugify|initials)/.test(r.label))
    .map((r) => `${r.label} [${r.state}]`)
    .join(', ')}; test_extra.py appeared and went`;
}

// 13. A run's coverage in the Testing view (issue 35), against the scripted fake server
// (tests/editors/fake: every code line of the run's file ran once, the lines ending in
// `# special` never): the "Test Coverage" pane lists the file with 75 % (6 of 8 lines), and the
// editor's gutter marks the two lines no test ran, which VS Code asks the extension for
// (loadDetailedCoverage -> StatementCoverage per line); the server's not-run problems and the
// lenses' "· 75% of lines" come through unfiltered.
export async function coverageView({ wb, shots }) {
  await wb.openFile('coverage_demo.py');
  const mark = await wb.mark();
  await wb.goToLine(2);
  await wb.command('Greenlight: Run Nearby Tests');
  await wb.seen('statusbar', /Greenlight: Running tests: \d+ passed, 0 failed/, mark, 'the run\'s result in the status bar');
  await wb.command('View: Show Testing');
  const row = await wb.waitForCoverageRow(/coverage_demo\.py/);
  assert.match(row, /75(\.0+)?\s*%/, `the file's statement coverage is not 75 %: ${row}`);
  await wb.focusEditor();
  const { value: missed, held: marked } = await wb.poll(() => wb.coverageGutter('miss'), (lines) => lines.length === 2, wb.timeoutMs);
  assert.ok(marked, `the gutter does not mark two unrun lines: ${JSON.stringify(missed)}`);
  assert.deepEqual(missed, [3, 9], 'the unrun lines in the gutter');
  const hit = await wb.coverageGutter('hit');
  assert.deepEqual(hit, [1, 2, 4, 7, 8, 10], 'the lines run, in the gutter');
  await wb.waitFor('the run\'s progress notification to close', () =>
    ![...document.querySelectorAll('.notification-toast')].some((t) => /Running tests/.test(t.innerText)));
  fs.copyFileSync(await wb.shot('13-coverage'), path.join(shots, 'testing-coverage.png'));
  // The server's own coverage output is plain LSP the extension passes through: the result
  // lenses' " · 75% of lines" and an Information problem per unrun line.
  const { value: lenses, held: lensed } = await wb.poll(() => wb.codeLenses(), (l) => l.filter((t) => /passed · 75% of lines/.test(t)).length === 2, wb.timeoutMs);
  assert.ok(lensed, `the result lenses do not say "· 75% of lines": ${JSON.stringify(lenses)}`);
  await wb.showProblems();
  const problems = await wb.waitForProblems('two "no test runs this line" problems', (rows) => rows.filter((r) => /no test runs this line/.test(r)).length === 2);
  const notRun = problems.filter((r) => /no test runs this line/.test(r));
  assert.match(notRun[0], /\[Ln 3, Col 9\]$/, `the first not-run problem's place: ${JSON.stringify(notRun)}`);
  assert.match(notRun[1], /\[Ln 9, Col 9\]$/, `the second not-run problem's place: ${JSON.stringify(notRun)}`);
  return `Test Coverage pane: "${row}"; gutter: not run ${missed.join(', ')}, run ${hit.join(', ')}; lenses: ${lenses.join(', ')}; problems: ${notRun.join(' | ')}`;
}

// 14. Tests first (issue 36), against the real server and the lane's scripted model
// (model-script.json: parse_duration has no tests, so generate proposes four, one of which the
// server flags as passing on the stub):
// the proposal opens as a diff with nothing on disk; Cancel closes it and writes nothing; Edit
// puts the cursor in the proposal, and Accept Tests and Generate then lands the edited test file
// and the code as one edit; one undo removes both.
const kDurations = '# parse_duration(text): "1h30m" -> 5400 seconds; "90s" -> 90; raises ValueError on junk\ndef parse_duration(text):\n    raise NotImplementedError\n';
export async function testsFirst({ wb, workspace }) {
  const source = path.join(workspace, 'tests-first/durations.py');
  // Where the test file goes is the server's choice (the real server, with no tests anywhere in
  // this folder: beside the module; the fake server: tests/).
  const places = ['tests-first/tests/test_durations.py', 'tests-first/test_durations.py'].map((p) => path.join(workspace, p));
  const written = () => places.filter((p) => fs.existsSync(p));
  await wb.openFile('durations.py');
  const before = await wb.editorText();
  const proposalToast = /parse_duration: 4 tests proposed from the comment for test_durations\.py \(new file\)/;
  const diffTab = '.tab[aria-label*="proposed tests"]';
  // The toast is read from the page (a second proposal's toast repeats the first one's text,
  // which the recorder only logs once).
  const propose = async () => {
    await wb.goToLine(1);
    await wb.command('Greenlight: Generate from Comment');
    await wb.page.waitForSelector(diffTab, { timeout: wb.timeoutMs });
    const toast = wb.page.locator('.notification-toast', { hasText: proposalToast });
    await toast.waitFor({ timeout: wb.timeoutMs });
    return (await toast.innerText()).replace(/\s+/g, ' ');
  };

  let mark = await wb.mark();
  const toast = await propose();
  const flagged = /1 test passes on the stub: (\w+) \(line (\d+)\)/.exec(toast);
  assert.ok(flagged, `the flagged test is not named: ${toast}`);
  await wb.waitFor('the proposed tests in the diff', () =>
    [...document.querySelectorAll('.editor-group-container.active .monaco-diff-editor .view-line')].some((l) => /def\stest_hours_and_minutes/.test(l.textContent)));
  assert.deepEqual(written(), [], 'a test file was written before acceptance');
  await wb.shot('14a-tests-proposed');

  // The choices in the diff's title bar (the notification's buttons are the same, but a toast
  // hides after a while on a busy machine).
  const titleAction = (label) => wb.page.locator(`.editor-group-container.active .editor-actions [aria-label^="${label}"]`).first().click({ timeout: wb.timeoutMs });
  await titleAction('Cancel Proposed Tests');
  await wb.page.waitForSelector(diffTab, { state: 'detached', timeout: wb.timeoutMs });
  await wb.seen('statusbar', /parse_duration: proposed tests cancelled; nothing written/, mark, 'the cancel in the status bar');
  assert.deepEqual(written(), [], 'Cancel wrote a test file');
  assert.ok(!fs.existsSync(path.join(workspace, 'tests-first/tests')), 'Cancel made a folder');
  assert.equal(fs.readFileSync(source, 'utf8'), kDurations, 'Cancel changed the source on disk');

  // Edit, then accept: what the proposal holds then (the flagged test replaced) is what lands.
  mark = await wb.mark();
  await propose();
  await wb.clickToastButton(proposalToast, 'Edit');
  await wb.seen('toast', /Edit the proposed tests in test_durations\.py/, mark, 'the notification after Edit');
  await wb.page.waitForSelector('.editor-group-container.active .monaco-editor.focused', { timeout: wb.timeoutMs });
  // The flagged test's assertion (the line after its def) becomes a real one.
  await wb.replaceLine(Number(flagged[2]) + 1, 'assert parse_duration("2m") == 120');
  await titleAction('Accept Tests and Generate');
  const end = await wb.seen('statusbar', /parse_duration: 4 new tests, 4\/4 passed/, mark, 'the outcome in the status bar');
  await wb.page.waitForSelector(diffTab, { state: 'detached', timeout: wb.timeoutMs });
  const { value: created } = await wb.poll(async () => written(), (w) => w.length === 1, wb.timeoutMs);
  assert.equal(created.length, 1, `the test file was not created: ${JSON.stringify(created)}`);
  const testsFile = created[0];
  await wb.focusEditor();
  await wb.waitForEditorText('the generated parse_duration', (t) => /def parse_duration\(text\):/.test(t) && !/NotImplementedError/.test(t));
  await wb.shot('14b-tests-accepted');

  // The test file's text: open it (an unsaved model: the workspace edit created it empty on
  // disk and filled it in the editor, like every edit greenlight makes).
  // Quick Open does not index a file created this late: open it from the Explorer.
  const explorerRow = (name) => wb.page.locator('.explorer-folders-view .monaco-list-row', { has: wb.page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) }).first();
  await wb.command('View: Show Explorer');
  if (testsFile.includes('/tests/') && !(await explorerRow('test_durations.py').isVisible())) await explorerRow('tests').click({ timeout: wb.timeoutMs });
  await explorerRow('test_durations.py').click({ timeout: wb.timeoutMs });
  await wb.page.waitForSelector('.tab.active[aria-label^="test_durations.py"]', { timeout: wb.timeoutMs });
  const tests = await wb.waitForEditorText('the accepted tests in test_durations.py', (t) => /def test_hours_and_minutes/.test(t));
  assert.match(tests, /^from durations import parse_duration/);
  assert.match(tests, /assert parse_duration\("2m"\) == 120/, 'the edit to the proposal did not land');
  assert.ok(!/assert callable/.test(tests), 'the flagged line the user replaced landed');
  await wb.openFile('durations.py');

  // One undo removes both (VS Code may first ask whether to undo in both files: yes).
  await wb.keyboard.press('Control+Z');
  const acrossFiles = wb.page.locator('.monaco-dialog-box').getByRole('button', { name: /Undo in 2 Files/ });
  const { value: asked } = await wb.poll(
    async () => ((await acrossFiles.isVisible()) ? 'dialog' : (await wb.editorText()) === before ? 'undone' : undefined),
    (state) => state !== undefined,
    wb.timeoutMs,
  );
  if (asked === 'dialog') await acrossFiles.click({ timeout: wb.timeoutMs });
  const undone = await wb.waitForEditorText('one undo to remove the code', (t) => t === before);
  assert.equal(undone, before);
  const { held } = await wb.poll(async () => fs.existsSync(testsFile), (exists) => !exists, wb.timeoutMs);
  assert.ok(held, 'the created test file is still on disk after the undo');
  assert.equal(fs.readFileSync(source, 'utf8'), kDurations, 'the source on disk changed');
  await wb.shot('14c-tests-undone');
  // The folder CreateFile made stays (VS Code's undo deletes the file only).
  fs.rmSync(path.join(workspace, 'tests-first/tests'), { recursive: true, force: true });
  return `proposal: "${toast.slice(0, 120)}…"; cancel wrote nothing; edited and accepted: "${/parse_duration: 4 new tests, 4\/4 passed/.exec(end)?.[0]}"; one undo${asked === 'dialog' ? ' (in 2 files)' : ''} removed the code and the test file`;
}

// The result lens over slugify (the first line of lenses in textutil.py) matches `re`.
async function waitForLens(wb, re, what) {
  await wb.waitFor(what, ({ source }) => {
    const first = [...document.querySelectorAll('.editor-group-container.active .codelens-decoration')]
      .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0];
    return first && new RegExp(source).test(first.textContent);
  }, { source: re.source });
}

async function waitForFile(file, predicate, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    if (predicate(text)) return text;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${file}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Files the scenarios need beside examples/, written into the lane's copy before VS Code starts
// (a file created later may not reach Quick Open in time).
export function prepareWorkspace(workspace) {
  fs.mkdirSync(path.join(workspace, 'tests-first'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'tests-first/durations.py'), kDurations);
  fs.writeFileSync(path.join(workspace, 'python/cube.py'), '"""A stub for the lens scenario."""\n\n\n# Return x cubed.\ndef cube(x):\n    pass\n');
  fs.writeFileSync(path.join(workspace, 'python/test_cube.py'), 'from cube import cube\n\n\ndef test_cube():\n    assert cube(3) == 27\n');
  // Scenario 13's file: the fake server scripts the `# special` lines as never run.
  fs.writeFileSync(
    path.join(workspace, 'python/coverage_demo.py'),
    [
      'def absolute(x):',
      '    if x < 0:',
      '        return -x  # special',
      '    return x',
      '',
      '',
      'def sign(x):',
      '    if x == 0:',
      '        return 0  # special',
      '    return 1 if x > 0 else -1',
      '',
    ].join('\n'),
  );
}

// In the order they run. Scenario 3 goes first: its round-2 screenshot is the README's image,
// and a fresh window has no earlier status bar message in it.
export const kScenarios = [
  { id: 3, name: 'generate from a comment: rounds, one edit, one undo', fn: generate, provider: true },
  { id: 1, name: 'run tests from the CodeLens and the palette', fn: runTests, provider: true },
  { id: 2, name: 'fix unsaved, run again: the problem disappears', fn: fixUnsaved, provider: true },
  { id: 4, name: 'quick fix on the failing test\'s diagnostic', fn: quickFix, provider: true },
  { id: 5, name: 'cancel a slow generation from the notification', fn: cancel, provider: true },
  { id: 7, name: 'the Testing view lists the tests and shows a run\'s results', fn: testingView, provider: true },
  { id: 8, name: 'a failing test\'s peek shows the expected / actual diff', fn: testingPeek, provider: true },
  { id: 9, name: 'run one test from the gutter', fn: testingGutter, provider: true },
  { id: 10, name: '"Fix" from a failed test\'s context menu in the Testing view', fn: testingFix, provider: true },
  { id: 11, name: 'the ✨ Generate lens goes once the stub is implemented', fn: generateLens, provider: true },
  // In a window of its own where no file was opened yet (its run would leave results and
  // problems behind for the scenarios after it).
  { id: 12, name: 'the Testing view lists the workspace\'s tests before any file is opened', fn: workspaceTests, provider: false, fresh: true },
  { id: 6, name: 'no provider configured: one clear message', fn: noProvider, provider: false },
  // Against the scripted fake server (lane.mjs --fake-server), in a window of its own.
  { id: 13, name: 'a run\'s coverage in the Testing view and the gutter', fn: coverageView, provider: false, fake: true },
  // Against the real server and the lane's scripted model (model-script.json: parse_duration's
  // tests, then its code).
  { id: 14, name: 'tests first: cancelled, then edited and accepted: both files land, one undo removes both', fn: testsFirst, provider: true },
];
