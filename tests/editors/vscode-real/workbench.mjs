// What a user does in VS Code and what they see, as playwright calls on code-server's page.
//
// Everything is read from the DOM (the texts a person reads), and every wait is for something to
// appear, bounded by `timeoutMs`; nothing sleeps. Menus are driven with the keyboard: clicks on
// their items can be swallowed by `.context-view-pointerBlock`.
//
// Short-lived texts (a progress notification's "round 2/3: ...", a status bar message that
// lasts 10 s, the spinner of a test run) are caught by a recorder installed in the page before
// the workbench loads: a MutationObserver on the notifications and the status bar appends each
// new text to window.__glSeen, so a test can ask "did this text appear after that moment?"
// without racing the UI.

const kRecorder = () => {
  const seen = [];
  const last = new Map();
  window.__glSeen = seen;
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  const record = () => {
    const now = [];
    document.querySelectorAll('.notification-toast').forEach((el, i) => now.push([`toast${i}`, 'toast', norm(el.innerText)]));
    const bar = document.querySelector('.part.statusbar');
    if (bar) now.push(['statusbar', 'statusbar', norm(bar.innerText)]);
    for (const [key, kind, text] of now) {
      if (last.get(key) === text) continue;
      last.set(key, text);
      if (text) seen.push({ kind, text, at: Date.now() });
    }
  };
  const observer = new MutationObserver(record);
  const watched = new Set();
  // The containers appear once the workbench is laid out; watch each as soon as it exists.
  const attach = setInterval(() => {
    for (const selector of ['.part.statusbar', '.notifications-toasts']) {
      const el = document.querySelector(selector);
      if (!el || watched.has(selector)) continue;
      watched.add(selector);
      observer.observe(el, { subtree: true, childList: true, characterData: true, attributes: true });
      record();
    }
    if (watched.size === 2) clearInterval(attach);
  }, 100);
};

const nbsp = /\u00a0/g;

export class Workbench {
  constructor(page, { timeoutMs, shots }) {
    this.page = page;
    this.timeoutMs = timeoutMs;
    this.shots = shots;
    this.keyboard = page.keyboard;
  }

  static async install(page) {
    await page.addInitScript(kRecorder);
  }

  // --- waiting ---------------------------------------------------------------------------------
  async waitFor(what, fn, arg, timeoutMs = this.timeoutMs) {
    try {
      return await this.page.waitForFunction(fn, arg, { timeout: timeoutMs, polling: 100 });
    } catch (e) {
      throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    }
  }

  // A mark in the recorder's log: texts seen after it count as new.
  async mark() {
    return this.page.evaluate(() => window.__glSeen.length);
  }

  // Waits until a toast or status bar text matching `re` has been seen since `mark`; returns it.
  async seen(kind, re, mark, what, timeoutMs) {
    const handle = await this.waitFor(
      what ?? `${kind} text ${re}`,
      ({ kind, source, flags, mark }) => {
        const re = new RegExp(source, flags);
        return window.__glSeen.slice(mark).find((e) => e.kind === kind && re.test(e.text))?.text;
      },
      { kind, source: re.source, flags: re.flags, mark },
      timeoutMs,
    );
    return handle.jsonValue();
  }

  async seenTexts(kind, mark) {
    return this.page.evaluate(({ kind, mark }) => window.__glSeen.slice(mark).filter((e) => e.kind === kind).map((e) => e.text), { kind, mark });
  }

  async shot(name) {
    const file = `${this.shots}/${name}.png`;
    await this.page.screenshot({ path: file });
    return file;
  }

  // --- workbench -------------------------------------------------------------------------------
  async ready() {
    await this.page.waitForSelector('.monaco-workbench .part.statusbar', { timeout: this.timeoutMs });
  }

  async quickInputChoose(keys, text, rowLabel, timeoutMs = this.timeoutMs) {
    // The previous quick input may still be closing (visible, not focused) when the keys are
    // pressed on a loaded machine: wait until THE input has the focus, or the text lands in the
    // editor (seen once in CI under load).
    await this.keyboard.press(keys);
    await this.waitFor(
      'the quick input to open with the focus',
      () => {
        const input = document.querySelector('.quick-input-widget input');
        return input !== null && input.offsetParent !== null && document.activeElement === input;
      },
      undefined,
      timeoutMs,
    );
    await this.keyboard.insertText(text);
    if (rowLabel !== undefined) {
      await this.waitFor(
        `"${rowLabel}" to be the chosen entry of the quick input`,
        (label) => {
          const row = document.querySelector('.quick-input-list .monaco-list-row.focused');
          return row && (row.getAttribute('aria-label') ?? '').startsWith(label);
        },
        rowLabel,
        timeoutMs,
      );
    }
    await this.keyboard.press('Enter');
    await this.page.waitForSelector('.quick-input-widget', { state: 'hidden', timeout: timeoutMs });
  }

  // After a failed scenario: close menus and the active editor, dropping its unsaved changes.
  async reset() {
    await this.keyboard.press('Escape');
    await this.keyboard.press('Escape');
    await this.quickInputChoose('Control+Shift+P', 'View: Revert and Close Editor', 'View: Revert and Close Editor', 10_000);
  }

  // Ctrl+P, the file's name, Enter: the file opens in the active editor group.
  async openFile(name) {
    await this.quickInputChoose('Control+P', name, name);
    await this.page.waitForSelector(`.tab.active[aria-label^="${name}"]`, { timeout: this.timeoutMs });
    await this.page.waitForSelector('.editor-group-container.active .monaco-editor .view-lines', { timeout: this.timeoutMs });
    await this.waitForServer();
    await this.focusEditor();
  }

  // The extension's status bar item says the server runs: "$(beaker) Greenlight" (it shows a
  // spinner while the server starts, and only while a Python/JS/C++ editor is active).
  async waitForServer() {
    await this.waitFor('the greenlight server to run (the status bar item with the beaker icon)', () =>
      [...document.querySelectorAll('.statusbar-item')].some((el) => el.querySelector('.codicon-beaker') && /Greenlight/.test(el.innerText)));
  }

  // Ctrl+Shift+P, the command's title, Enter.
  async command(title) {
    await this.quickInputChoose('Control+Shift+P', title, title);
  }

  async focusEditor() {
    await this.keyboard.press('Control+1');
    await this.page.waitForSelector('.editor-group-container.active .monaco-editor.focused', { timeout: this.timeoutMs });
  }

  // Ctrl+G: the cursor to the start of `line` (1-based).
  async goToLine(line) {
    await this.quickInputChoose('Control+G', String(line));
    await this.waitFor(`the cursor on line ${line}`, (line) => {
      const item = [...document.querySelectorAll('.statusbar-item')].find((el) => /^Ln \d+, Col \d+/.test(el.innerText.trim()));
      return item?.innerText.trim().startsWith(`Ln ${line},`);
    }, line);
  }

  // Replaces the text of `line` (without its indentation) by `text`, unsaved.
  async replaceLine(line, text) {
    await this.goToLine(line);
    await this.keyboard.press('Home'); // first non-blank character
    await this.keyboard.press('Shift+End');
    await this.keyboard.insertText(text);
  }

  // --- the editor ------------------------------------------------------------------------------
  // The active editor's text as rendered (the lanes's files fit on the screen), line by line.
  async editorLines() {
    return this.page.evaluate(() => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      const lines = [...editor.querySelectorAll('.view-lines .view-line')].map((el) => ({ top: parseFloat(el.style.top), text: el.textContent }));
      const numbers = new Map(
        [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].map((el) => [parseFloat(el.parentElement.style.top || el.style.top), Number(el.textContent)]),
      );
      return lines.sort((a, b) => a.top - b.top).map((l) => ({ line: numbers.get(l.top), text: l.text }));
    }).then((lines) => lines.map((l) => ({ line: l.line, text: l.text.replace(nbsp, ' ') })));
  }

  async editorText() {
    return (await this.editorLines()).map((l) => l.text).join('\n');
  }

  // Reads `read()` every 100 ms until `predicate` holds or `timeoutMs` passes; returns the last
  // read and whether it held, for the caller to throw or assert on.
  async poll(read, predicate, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (predicate(value)) return { value, held: true };
      if (Date.now() > deadline) return { value, held: false };
      await this.page.waitForTimeout(100);
    }
  }

  async waitForEditorText(what, predicate, timeoutMs = this.timeoutMs) {
    const { value, held } = await this.poll(() => this.editorText(), predicate, timeoutMs);
    if (!held) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; the editor shows:\n${value}`);
    return value;
  }

  // Polls squiggleLines() until `pred` holds or the wait's bound passes, and returns the last
  // read for the caller to assert on. The Problems panel and the squiggles come from one marker
  // change, but the squiggles are drawn at the next animation frame, which a starved renderer
  // can put after the panel's (debounced) update that the caller waited for.
  async waitForSquiggles(pred, timeoutMs = this.timeoutMs) {
    return (await this.poll(() => this.squiggleLines(), pred, timeoutMs)).value;
  }

  // The lines (number and text) that carry an error squiggle in the active editor.
  async squiggleLines() {
    const tops = await this.page.evaluate(() => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      return [...editor.querySelectorAll('.view-overlays .squiggly-error')].map((el) => parseFloat(el.parentElement.style.top));
    });
    const lines = await this.page.evaluate(() => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      return [...editor.querySelectorAll('.view-lines .view-line')].map((el) => [parseFloat(el.style.top), el.textContent]);
    });
    const byTop = new Map(lines);
    const all = await this.editorLines();
    return [...new Set(tops)].map((top) => {
      const text = (byTop.get(top) ?? '').replace(nbsp, ' ');
      return { line: all.find((l) => l.text === text)?.line, text };
    });
  }

  async isDirty() {
    return this.page.evaluate(() => document.querySelector('.tab.active')?.classList.contains('dirty') ?? false);
  }

  // The CodeLens links of the active editor, top to bottom.
  async codeLenses() {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.editor-group-container.active .codelens-decoration a')]
        .map((a) => ({ top: a.getBoundingClientRect().top, text: a.textContent.replace(/\s+/g, ' ').trim() }))
        .sort((a, b) => a.top - b.top)
        .map((l) => l.text),
    );
  }

  async clickCodeLens(re, index = 0) {
    const links = this.page.locator('.editor-group-container.active .codelens-decoration a', { hasText: re });
    await links.nth(index).waitFor({ timeout: this.timeoutMs });
    await links.nth(index).click();
  }

  // Ctrl+. at the cursor; returns the listed actions' titles. When the menu has not listed
  // `expect` within 10 s, it is closed and asked for again, until the wait's bound: once (a CI
  // run of d697c11, scenario 6) VS Code showed "No code actions available" on the comment line
  // just after goToLine and kept it for 90 s, although the server had answered each of its
  // codeAction requests. What the scenarios check comes after the menu; a menu that never lists
  // the action still fails, with every press counted.
  async openCodeActions(expect) {
    const deadline = Date.now() + this.timeoutMs;
    const listed = ({ source, flags }) => {
      const rows = [...document.querySelectorAll('.action-widget .monaco-list-row')].map((r) => r.textContent.trim());
      return rows.some((t) => new RegExp(source, flags).test(t)) ? rows : undefined;
    };
    for (let presses = 1; ; presses++) {
      await this.keyboard.press('Control+.');
      const left = deadline - Date.now();
      try {
        const handle = await this.page.waitForFunction(listed, { source: expect.source, flags: expect.flags },
          { timeout: Math.max(1000, Math.min(10000, left)), polling: 100 });
        return handle.jsonValue();
      } catch (e) {
        if (Date.now() + 1000 >= deadline) {
          throw new Error(`timed out after ${this.timeoutMs / 1000} s waiting for the code action menu to list ${expect} (Ctrl+. pressed ${presses} times)`);
        }
        await this.keyboard.press('Escape');
      }
    }
  }

  // With the code action menu open: moves the focus to the entry matching `re`, then Enter.
  async chooseCodeAction(re) {
    for (let i = 0; i < 20; i++) {
      const focused = await this.page.evaluate(() => document.querySelector('.action-widget .monaco-list-row.focused')?.textContent.trim() ?? '');
      if (re.test(focused)) {
        await this.keyboard.press('Enter');
        await this.page.waitForSelector('.action-widget', { state: 'hidden', timeout: this.timeoutMs });
        return focused;
      }
      await this.keyboard.press('ArrowDown');
    }
    throw new Error(`no entry of the code action menu matches ${re}`);
  }

  // --- panels ----------------------------------------------------------------------------------
  async showProblems() {
    await this.command('View: Focus Problems');
    await this.page.waitForSelector('.markers-panel', { state: 'visible', timeout: this.timeoutMs });
  }

  // The Problems panel's rows as shown (a file row, its problems, their related locations).
  async problems() {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.markers-panel .monaco-list-row')].map((r) => r.innerText.replace(/\s+/g, ' ').trim()),
    );
  }

  async waitForProblems(what, predicate) {
    const { value, held } = await this.poll(() => this.problems(), predicate, this.timeoutMs);
    if (!held) throw new Error(`timed out after ${this.timeoutMs / 1000} s waiting for ${what}; Problems shows: ${JSON.stringify(value)}`);
    return value;
  }

  async statusBar() {
    return this.page.evaluate(() => document.querySelector('.part.statusbar').innerText.replace(/\s+/g, ' ').trim());
  }

  async toasts() {
    return this.page.evaluate(() => [...document.querySelectorAll('.notification-toast')].map((t) => t.innerText.replace(/\s+/g, ' ').trim()));
  }

  // --- the Testing view and the gutter ---------------------------------------------------------
  // The rows of the Testing view's tree: label (its first line), state (from the row's status
  // icon: passed, failed, errored, skipped, queued, running, unset) and whether it is collapsed.
  // Every row of the Testing view's tree, in order. The tree is a virtualized list: only the rows
  // in view are in the page, and once a run's Test Coverage pane shares the sidebar the lower
  // folders are out of view; so the list is scrolled through (by the mouse wheel, as a user
  // would) and the rows merged by their list index, then scrolled back to the top.
  async testRows() {
    const kList = '.test-explorer .monaco-list, .testing-explorer-tree .monaco-list';
    const read = () => this.page.evaluate((sel) => {
      const list = document.querySelector(sel);
      if (!list) return { rows: [], more: false, atEnd: true };
      const rowsEl = list.querySelector('.monaco-list-rows');
      const total = rowsEl ? parseFloat(rowsEl.style.height) || 0 : 0;
      const top = rowsEl ? -(parseFloat(rowsEl.style.top) || 0) : 0;
      const rows = [...list.querySelectorAll('.monaco-list-row')].map((r) => {
        const icon = r.querySelector('[class*="codicon-testing-"]');
        const cls = icon ? [...icon.classList].find((c) => c.startsWith('codicon-testing-')) ?? '' : '';
        const state = /passed/.test(cls) ? 'passed' : /failed/.test(cls) ? 'failed' : /error/.test(cls) ? 'errored' : /skipped/.test(cls) ? 'skipped'
          : /queued/.test(cls) ? 'queued' : /loading|spin|running/.test(cls) ? 'running' : 'unset';
        return { index: Number(r.dataset.index ?? -1), label: (r.innerText || '').split('\n')[0].trim(), aria: r.getAttribute('aria-label') ?? '', state, collapsed: !!r.querySelector('.monaco-tl-twistie.collapsible.collapsed') };
      });
      return { rows, more: total > list.clientHeight + 1, atEnd: top + list.clientHeight >= total - 1 };
    }, kList);
    const strip = ({ index, ...row }) => row;
    let page = await read();
    if (!page.more) return page.rows.sort((a, b) => a.index - b.index).map(strip);
    const list = this.page.locator(kList).first();
    await list.hover();
    await this.page.mouse.wheel(0, -100000);
    await this.page.waitForTimeout(50);
    const byIndex = new Map();
    for (let i = 0; i < 50; i++) {
      page = await read();
      for (const r of page.rows) byIndex.set(r.index, r);
      if (page.atEnd) break;
      await this.page.mouse.wheel(0, 120);
      await this.page.waitForTimeout(50);
    }
    await this.page.mouse.wheel(0, -100000);
    return [...byIndex.values()].sort((a, b) => a.index - b.index).map(strip);
  }

  // Waits for a Testing view row whose label matches `re` (and has `state`, when given).
  async waitForTestRow(re, what, state) {
    const { value, held } = await this.poll(() => this.testRows(), (rows) => rows.some((r) => re.test(r.label) && (!state || r.state === state)), this.timeoutMs);
    if (!held) throw new Error(`timed out after ${this.timeoutMs / 1000} s waiting for ${what}; the Testing view shows: ${JSON.stringify(value)}`);
    return value.find((r) => re.test(r.label) && (!state || r.state === state));
  }

  // Expands every collapsed row of the Testing view's tree (its twisties), until none is left.
  async expandTestRows() {
    for (let i = 0; i < 20; i++) {
      const twistie = this.page.locator('.test-explorer .monaco-tl-twistie.collapsible.collapsed, .testing-explorer-tree .monaco-tl-twistie.collapsible.collapsed').first();
      if ((await twistie.count()) === 0) return;
      await twistie.click();
      await this.page.waitForTimeout(100);
    }
  }

  // Right-clicks the Testing view's row whose label matches `re`; returns the menu's entries.
  async testRowMenu(re) {
    const row = this.page.locator('.test-explorer .monaco-list-row, .testing-explorer-tree .monaco-list-row').filter({ hasText: re }).first();
    // Out of view in the virtualized tree (see testRows): scroll down to it.
    const list = this.page.locator('.test-explorer .monaco-list, .testing-explorer-tree .monaco-list').first();
    for (let i = 0; i < 50 && (await row.count()) === 0 && (await list.count()) > 0; i++) {
      await list.hover();
      await this.page.mouse.wheel(0, 120);
      await this.page.waitForTimeout(50);
    }
    await row.click({ button: 'right' });
    const handle = await this.waitFor('the context menu', () => {
      const labels = [...document.querySelectorAll('.monaco-menu .action-label')].map((a) => a.textContent.trim()).filter(Boolean);
      return labels.length ? labels : undefined;
    });
    return handle.jsonValue();
  }

  // With a context menu open: moves to the entry `label` with the arrow keys, then Enter.
  async chooseMenuItem(label) {
    for (let i = 0; i < 30; i++) {
      const focused = await this.page.evaluate(() => document.querySelector('.monaco-menu .action-item.focused .action-label')?.textContent.trim() ?? '');
      if (focused === label) {
        await this.keyboard.press('Enter');
        return;
      }
      await this.keyboard.press('ArrowDown');
    }
    throw new Error(`no context menu entry "${label}"`);
  }

  // The peek of a test result in the active editor: its text and the diff editor's text.
  async peek() {
    return this.page.evaluate(() => {
      const peek = document.querySelector('.editor-group-container.active .test-output-peek, .editor-group-container.active .peekview-widget');
      if (!peek) return undefined;
      const diff = [...peek.querySelectorAll('.monaco-diff-editor .view-lines')].map((v) => v.textContent).join('\n');
      return { text: peek.innerText.replace(/\s+/g, ' '), diff: diff.replace(/\u00a0/g, ' ') };
    });
  }

  async waitForPeek(what, predicate) {
    const { value, held } = await this.poll(() => this.peek(), (p) => !!p && predicate(p), this.timeoutMs);
    if (!held) throw new Error(`timed out after ${this.timeoutMs / 1000} s waiting for ${what}; the peek shows: ${JSON.stringify(value)}`);
    return value;
  }

  // The testing glyph in the active editor's gutter on `line` (1-based): its classes.
  async gutterGlyph(line) {
    return this.page.evaluate((line) => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      const number = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].find((el) => Number(el.textContent) === line);
      if (!number) return undefined;
      const top = number.getBoundingClientRect().top;
      const glyphs = [...editor.querySelectorAll('.margin [class*="testing-"], .glyph-margin-widgets [class*="testing-"], .margin-view-overlays [class*="testing-"]')];
      const hit = glyphs.find((g) => Math.abs(g.getBoundingClientRect().top - top) < 4);
      return hit ? hit.className : undefined;
    }, line);
  }

  async clickTestGutter(line) {
    const { held, value } = await this.poll(() => this.gutterGlyph(line), (c) => !!c, this.timeoutMs);
    if (!held) throw new Error(`no testing glyph in the gutter on line ${line}: ${value}`);
    const box = await this.page.evaluate((line) => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      const number = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].find((el) => Number(el.textContent) === line);
      const top = number.getBoundingClientRect().top;
      const g = [...editor.querySelectorAll('.margin [class*="testing-"], .glyph-margin-widgets [class*="testing-"], .margin-view-overlays [class*="testing-"]')]
        .find((g) => Math.abs(g.getBoundingClientRect().top - top) < 4);
      const r = g.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    }, line);
    await this.page.mouse.click(box.x, box.y);
  }

  async waitForGutterState(line, state) {
    const { held, value } = await this.poll(() => this.gutterGlyph(line), (c) => !!c && c.includes(`testing-${state}`), this.timeoutMs);
    if (!held) throw new Error(`the gutter glyph on line ${line} did not turn ${state}: ${value}`);
    return value;
  }

  // --- coverage ---------------------------------------------------------------------------------
  // The "Test Coverage" pane as the sidebar shows it: its rows, whether it is there and expanded,
  // and (for a failure's message) the sidebar's title and its panes' headers.
  async coveragePane() {
    return this.page.evaluate(() => {
      const header = (p) => (p.querySelector('.pane-header')?.innerText ?? '').replace(/\s+/g, ' ').trim();
      const panes = [...document.querySelectorAll('.sidebar .pane')];
      const pane = panes.find((p) => /test coverage/i.test(header(p)));
      return {
        sidebar: document.querySelector('.sidebar .composite.title')?.innerText.trim() ?? '(no sidebar)',
        panes: panes.map((p) => `${header(p)}${p.querySelector('.pane-header.expanded') ? '' : ' (collapsed)'}`),
        present: !!pane,
        expanded: !!pane?.querySelector('.pane-header.expanded'),
        rows: pane ? [...pane.querySelectorAll('.monaco-list-row')].map((r) => r.innerText.replace(/\s+/g, ' ').trim()) : [],
      };
    });
  }

  // Polls the Test Coverage pane until one of its rows matches `re`, keeping it in view on the
  // way: the Testing view shown again when something else took the sidebar, the pane expanded
  // when it is collapsed. The pane itself is VS Code's: it is only there while a run's coverage
  // is open, which this never does.
  async waitForCoverageRow(re) {
    let nudged = 0;
    const { value, held } = await this.poll(async () => {
      const pane = await this.coveragePane();
      if (Date.now() - nudged > 5000 && !pane.rows.some((r) => re.test(r))) {
        nudged = Date.now();
        if (!/^testing/i.test(pane.sidebar)) await this.command('View: Show Testing');
        else if (pane.present && !pane.expanded) await this.page.locator('.sidebar .pane-header', { hasText: /test coverage/i }).first().click();
      }
      return pane;
    }, (pane) => pane.rows.some((r) => re.test(r)), this.timeoutMs);
    if (!held) throw new Error(`no row matching ${re} in the Test Coverage pane: ${JSON.stringify(value)}`);
    return value.rows.find((r) => re.test(r));
  }

  // The lines (1-based) of the active editor whose gutter shows VS Code's coverage decoration of
  // `kind` ('hit' or 'miss').
  async coverageGutter(kind) {
    return this.page.evaluate((kind) => {
      const editor = document.querySelector('.editor-group-container.active .monaco-editor');
      if (!editor) return [];
      const numbers = [...editor.querySelectorAll('.margin-view-overlays .line-numbers')].map((el) => ({ line: Number(el.textContent), top: el.getBoundingClientRect().top }));
      const out = new Set();
      for (const d of editor.querySelectorAll(`.margin-view-overlays .coverage-deco-gutter.coverage-deco-${kind}, .margin-view-overlays .coverage-deco-${kind}`)) {
        const top = d.getBoundingClientRect().top;
        const n = numbers.find((n) => Math.abs(n.top - top) < 4);
        if (n) out.add(n.line);
      }
      return [...out].sort((a, b) => a - b);
    }, kind);
  }

  // Clicks a button of the notification whose text matches `re`.
  async clickToastButton(re, label) {
    const toast = this.page.locator('.notification-toast', { hasText: re });
    await toast.getByRole('button', { name: label }).click({ timeout: this.timeoutMs });
  }
}
