// The manifest (package.json) against the contract: every key of DESIGN.md's "greenlight"
// section is a setting with the same default, settings.ts validates the same keys with the
// same defaults, and the commands and activation events are consistent with the code.
import './vscodeStub';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { isValid, SETTINGS } from '../src/settings';
import { designFixture, designMd, vscodeDir } from './paths';

interface Property {
  type: string | string[];
  default: unknown;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  description?: string;
  markdownDescription?: string;
  items?: { type: string };
}

const manifest = JSON.parse(fs.readFileSync(path.join(vscodeDir, 'package.json'), 'utf8'));
const properties: Record<string, Property> = manifest.contributes.configuration.properties;
const design: Record<string, unknown> = JSON.parse(fs.readFileSync(designFixture, 'utf8'));
const kEditorOnly = ['greenlight.server.path', 'greenlight.server.extraArgs', 'greenlight.trace.server'];

// {"a": {"b": 1}} -> {"greenlight.a.b": 1}; arrays and null are leaves.
function flatten(value: Record<string, unknown>, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  for (const [k, v] of Object.entries(value)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) flatten(v as Record<string, unknown>, `${prefix}.${k}`, out);
    else out.set(`${prefix}.${k}`, v);
  }
  return out;
}
const designKeys = flatten(design, 'greenlight', new Map());

test('the fixture is the block in DESIGN.md (when DESIGN.md is available)', (t) => {
  if (!designMd || !fs.existsSync(designMd)) {
    t.skip('GREENLIGHT_DESIGN_MD not set or missing');
    return;
  }
  const text = fs.readFileSync(designMd, 'utf8');
  const after = text.split('## Configuration (section `greenlight`)')[1];
  assert.ok(after, 'DESIGN.md has no "## Configuration (section `greenlight`)" heading');
  const block = after.split('```json')[1]?.split('```')[0];
  assert.ok(block, 'no ```json block under the Configuration heading');
  assert.deepEqual(JSON.parse(block), design);
});

test('package.json declares exactly the DESIGN.md keys plus the editor-only ones', () => {
  const expected = [...designKeys.keys(), ...kEditorOnly].sort();
  assert.deepEqual(Object.keys(properties).sort(), expected);
});

test('defaults, enums and nullability match DESIGN.md', () => {
  for (const [key, designValue] of designKeys) {
    const prop = properties[key]!;
    assert.ok(prop.description || prop.markdownDescription, `${key} has no description`);
    const types = Array.isArray(prop.type) ? prop.type : [prop.type];
    if (typeof designValue === 'string' && designValue.includes('|')) {
      const values = designValue.split('|');
      assert.deepEqual(prop.enum, values, `${key} enum`);
      assert.equal(prop.default, values[0], `${key} default`);
      continue;
    }
    assert.deepEqual(prop.default, designValue, `${key} default`);
    if (designValue === null) assert.ok(types.includes('null'), `${key} must accept null`);
    else if (Array.isArray(designValue)) assert.ok(types.includes('array') && prop.items?.type === 'string', `${key} array of strings`);
    else if (typeof designValue === 'number') assert.ok(types.includes('number') || types.includes('integer'), `${key} numeric`);
    else assert.ok(types.includes(typeof designValue), `${key} type ${typeof designValue}`);
  }
});

test('settings.ts validates the same keys with the same defaults and bounds as package.json', () => {
  assert.deepEqual(SETTINGS.map((s) => `greenlight.${s.key}`).sort(), Object.keys(properties).sort());
  for (const spec of SETTINGS) {
    const key = `greenlight.${spec.key}`;
    const prop = properties[key]!;
    assert.deepEqual(prop.default, spec.defaultValue, `${key} default`);
    assert.equal(spec.forServer, !kEditorOnly.includes(key), `${key} forServer`);
    const kind = spec.kind;
    if (kind.type === 'enum') assert.deepEqual(prop.enum, [...kind.values], `${key} enum`);
    if (kind.type === 'number') {
      const numeric = kind.integer ? 'integer' : 'number';
      assert.deepEqual(prop.type, kind.nullable ? [numeric, 'null'] : numeric, `${key} type`);
      assert.equal(prop.minimum, kind.minimum, `${key} minimum`);
      assert.equal(prop.exclusiveMinimum, kind.exclusiveMinimum, `${key} exclusiveMinimum`);
      assert.equal(prop.maximum, kind.maximum, `${key} maximum`);
    }
    if (kind.type === 'boolean') assert.equal(prop.type, 'boolean', key);
    if (kind.type === 'stringArray') {
      assert.deepEqual(prop.type, kind.nullable ? ['array', 'null'] : 'array', `${key} type`);
    }
    if (kind.type === 'string') assert.deepEqual(prop.type, kind.nullable ? ['string', 'null'] : 'string', `${key} type`);
    assert.ok(isValid(kind, prop.default), `${key} default valid`);
  }
});

test('restricted (untrusted-workspace) settings exist', () => {
  for (const key of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations as string[]) {
    assert.ok(key in properties, `${key} is restricted but not declared`);
  }
});

test('commands: ids and "Greenlight: ..." titles, none collides with the server\'s commands', () => {
  const commands = manifest.contributes.commands as { command: string; title: string; category: string }[];
  assert.deepEqual(
    commands.map((c) => `${c.category}: ${c.title}`),
    [
      'Greenlight: Generate from Comment',
      'Greenlight: Fix Failing Test',
      'Greenlight: Run Nearby Tests',
      'Greenlight: Cancel',
      'Greenlight: Restart Server',
      'Greenlight: Show Output',
      'Greenlight: Generate',
      'Greenlight: Fix',
      'Greenlight: Accept Tests and Generate',
      'Greenlight: Cancel Proposed Tests',
    ],
  );
  // The server's executeCommandProvider ids are registered by vscode-languageclient; ours must
  // not collide with them or activation fails with "command already exists".
  for (const serverCommand of ['greenlight.runTests', 'greenlight.generate', 'greenlight.fix', 'greenlight.cancel']) {
    assert.ok(!commands.some((c) => c.command === serverCommand), `${serverCommand} collides with the server's command`);
  }
});

test('activates for python, javascript and cpp; entry point and lock file are consistent', () => {
  for (const lang of ['python', 'javascript', 'cpp']) {
    assert.ok(manifest.activationEvents.includes(`onLanguage:${lang}`), lang);
  }
  assert.equal(manifest.main, './out/src/extension.js');
  assert.ok(fs.existsSync(path.join(vscodeDir, 'src', 'extension.ts')));
  const lock = JSON.parse(fs.readFileSync(path.join(vscodeDir, 'package-lock.json'), 'utf8'));
  assert.equal(lock.name, manifest.name);
  assert.equal(lock.packages['node_modules/vscode-languageclient'].version, manifest.dependencies['vscode-languageclient']);
  assert.match(manifest.dependencies['vscode-languageclient'], /^9\./);
});

// --- keybindings and menus ------------------------------------------------------------------

interface Keybinding {
  command: string;
  key: string;
  mac?: string;
  when?: string;
}
const keybindings: Keybinding[] = manifest.contributes.keybindings;
const defaults: { platforms: Record<'linux' | 'windows' | 'macos', string[][]> } = JSON.parse(
  fs.readFileSync(path.join(vscodeDir, 'test', 'fixtures', 'vscode-default-keybindings.json'), 'utf8'),
);
// Contexts that cannot hold while a text editor of a greenlight language has the focus: another
// part of the window has it (terminal, list, quick input), or it is the debug console's input.
const kExclusiveWithEditorText = [
  'terminalFocus',
  'listFocus',
  'inQuickInput',
  '!editorFocus',
  'inDebugRepl',
  "view == 'workbench.panel.repl.view'",
  "focusedView == 'workbench.panel.repl.view'",
];

// A when-clause (no parentheses: `a && b || c`) that cannot be true while ours is.
function exclusiveWithEditorText(when: string | undefined): boolean {
  if (!when || when.includes('(')) return false;
  return when.split('||').every((disjunct) => disjunct.split('&&').some((term) => kExclusiveWithEditorText.includes(term.trim())));
}

test('keybindings: the four commands, in a greenlight editor (Cancel while busy)', () => {
  assert.deepEqual(
    keybindings.map((k) => [k.command, k.key, k.when]),
    [
      ['greenlight.generateFromComment', 'ctrl+alt+g', 'editorTextFocus && editorLangId in greenlight.languages'],
      ['greenlight.fixFailingTest', 'ctrl+alt+f', 'editorTextFocus && editorLangId in greenlight.languages'],
      ['greenlight.runNearbyTests', 'ctrl+alt+r', 'editorTextFocus && editorLangId in greenlight.languages'],
      ['greenlight.cancelRun', 'ctrl+alt+x', 'greenlight.busy'],
    ],
  );
  const contributed = (manifest.contributes.commands as { command: string }[]).map((c) => c.command);
  for (const k of keybindings) assert.ok(contributed.includes(k.command), `${k.command} is bound but not contributed`);
  assert.equal(new Set(keybindings.map((k) => k.key)).size, keybindings.length, 'two commands share a key');
});

test('keybindings: no clash with VS Code\'s default keybindings on Linux, Windows and macOS', () => {
  for (const [platform, rows] of Object.entries(defaults.platforms)) {
    assert.ok(rows.length > 50, `${platform}: the fixture lists the platform's Ctrl/Cmd+Alt bindings`);
    for (const k of keybindings) {
      const key = (platform === 'macos' && k.mac) || k.key;
      // The fixture holds the single-stroke Ctrl/Cmd+Alt bindings: ours must be of that family
      // for this check to mean anything.
      assert.ok(!key.includes(' ') && key.split('+').includes('alt') && /(^|\+)(ctrl|cmd)\+/.test(key), `${key}: outside the checked family`);
      const sameKey = rows.filter(([defaultKey]) => defaultKey === key);
      const inEditor = (k.when ?? '').split('&&').map((t) => t.trim()).includes('editorTextFocus');
      for (const [, when] of sameKey) {
        assert.ok(
          inEditor && exclusiveWithEditorText(when),
          `${platform}: ${key} (${k.command}) is also VS Code's default when "${when ?? '(always)'}"`,
        );
      }
    }
  }
  // The check itself can fail: a key VS Code uses in the editor is caught.
  assert.equal(exclusiveWithEditorText('editorTextFocus'), false);
  assert.equal(exclusiveWithEditorText(undefined), false);
  assert.equal(exclusiveWithEditorText('terminalFocus && a || listFocus'), true);
  assert.equal(exclusiveWithEditorText('terminalFocus || editorFocus'), false);
  assert.ok(defaults.platforms.linux.some(([key, when]) => key === 'ctrl+alt+backspace' && when === 'editorTextFocus'));
});

test('menus: contributed commands only, shown where they apply, context keys that the code sets', async () => {
  const { kContextKeys } = await import('../src/contextKeys');
  const contributed = (manifest.contributes.commands as { command: string }[]).map((c) => c.command);
  const menus = manifest.contributes.menus as Record<string, { command: string; when?: string; group?: string }[]>;
  const whens: string[] = keybindings.map((k) => k.when ?? '');
  for (const [menu, entries] of Object.entries(menus)) {
    for (const entry of entries) {
      assert.ok(contributed.includes(entry.command), `${menu}: ${entry.command} is not contributed`);
      whens.push(entry.when ?? '');
    }
  }
  const lang = 'editorLangId in greenlight.languages';
  const palette = Object.fromEntries(menus['commandPalette']!.map((e) => [e.command, e.when]));
  for (const command of ['greenlight.generateFromComment', 'greenlight.fixFailingTest', 'greenlight.runNearbyTests']) {
    assert.equal(palette[command], lang, `${command} in the palette only in a greenlight editor`);
  }
  assert.equal(palette['greenlight.cancelRun'], undefined, 'Cancel is always in the palette (runs on save show no progress)');
  // Generate / Fix of a failed test take the test item VS Code passes from the Testing view.
  for (const command of ['greenlight.testing.generate', 'greenlight.testing.fix']) {
    assert.equal(palette[command], 'false', `${command} only in the Testing view's context menu`);
    const entry = menus['testing/item/context']!.find((e) => e.command === command);
    assert.match(entry?.when ?? '', /controllerId == greenlight && testResultState == failed/, `${command} on a failed greenlight test`);
  }
  const context = Object.fromEntries(menus['editor/context']!.map((e) => [e.command, e.when]));
  assert.equal(context['greenlight.fixFailingTest'], `${lang} && greenlight.canFix`);
  assert.equal(context['greenlight.cancelRun'], 'greenlight.busy');
  // Tests first: the proposal's diff editor (testsPreview.ts's scheme) has Accept / Cancel in its title.
  for (const command of ['greenlight.acceptTests', 'greenlight.cancelTests']) {
    assert.equal(palette[command], 'resourceScheme == greenlight-tests', `${command} in the palette only on a proposal`);
    const entry = menus['editor/title']!.find((e) => e.command === command);
    assert.equal(entry?.when, 'resourceScheme == greenlight-tests', `${command} in the proposal's title bar`);
  }
  const used = new Set(whens.flatMap((w) => w.match(/greenlight\.\w+/g) ?? []));
  assert.deepEqual([...used].sort(), [...kContextKeys].sort(), 'when-clauses use exactly the context keys contextKeys.ts sets');
});
