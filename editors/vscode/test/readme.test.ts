// The README documents what the manifest contributes: every command with its key, the refine
// settings with their bounds, and keeps the marked place for the real-VS-Code screenshot.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { vscodeDir } from './paths';

const manifest = JSON.parse(fs.readFileSync(path.join(vscodeDir, 'package.json'), 'utf8'));
const readme = fs.readFileSync(path.join(vscodeDir, 'README.md'), 'utf8');

// "ctrl+alt+g" -> "Ctrl+Alt+G"
const shown = (key: string) => key.split('+').map((k) => k[0]!.toUpperCase() + k.slice(1)).join('+');

test('README: every command, with its key', () => {
  const keys = new Map<string, string>((manifest.contributes.keybindings as { command: string; key: string }[]).map((k) => [k.command, k.key]));
  for (const c of manifest.contributes.commands as { command: string; title: string; category: string }[]) {
    const row = readme.split('\n').find((line) => line.startsWith(`| ${c.category}: ${c.title} |`));
    assert.ok(row, `no table row for "${c.category}: ${c.title}"`);
    const key = keys.get(c.command);
    if (key) assert.ok(row.includes(`<kbd>${shown(key)}</kbd>`), `${c.command}: the row does not show ${shown(key)}`);
  }
});

test('README: the refine settings with their defaults and bounds', () => {
  const props = manifest.contributes.configuration.properties as Record<string, { default: unknown; minimum?: number; maximum?: number }>;
  for (const key of ['greenlight.refine.maxRounds', 'greenlight.refine.candidates', 'greenlight.refine.timeoutSeconds', 'greenlight.refine.preview']) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${key}\` |`));
    assert.ok(row, `no row for ${key}`);
    const p = props[key]!;
    assert.ok(row.includes(`| ${String(p.default)} |`), `${key}: default ${String(p.default)} not in "${row}"`);
    if (p.maximum !== undefined) assert.ok(row.includes(String(p.maximum)), `${key}: maximum ${p.maximum} not in "${row}"`);
  }
});

test('README: the screenshot placeholder the real-VS-Code lane fills', () => {
  assert.match(readme, /<!-- SCREENSHOT: images\/generate\.png is produced by the real-VS-Code test lane/);
  assert.match(readme, /<img src="images\/generate\.png" alt="[^"]+"/);
  const ignore = fs.readFileSync(path.join(vscodeDir, '.vscodeignore'), 'utf8');
  assert.ok(!/^images/m.test(ignore), 'images/ must be packaged');
  assert.match(manifest.scripts.package, /--no-rewrite-relative-links/, 'vsce refuses relative README images without a repository URL');
});
