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
    await this.keyboard.press(keys);
    await this.page.waitForSelector('.quick-input-widget input', { state: 'visible', timeout: timeoutMs });
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

  // Ctrl+. at the cursor; returns the listed actions' titles.
  async openCodeActions(expect) {
    await this.keyboard.press('Control+.');
    const handle = await this.waitFor(
      `the code action menu to list ${expect}`,
      ({ source, flags }) => {
        const rows = [...document.querySelectorAll('.action-widget .monaco-list-row')].map((r) => r.textContent.trim());
        return rows.some((t) => new RegExp(source, flags).test(t)) ? rows : undefined;
      },
      { source: expect.source, flags: expect.flags },
    );
    return handle.jsonValue();
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

  // Clicks a button of the notification whose text matches `re`.
  async clickToastButton(re, label) {
    const toast = this.page.locator('.notification-toast', { hasText: re });
    await toast.getByRole('button', { name: label }).click({ timeout: this.timeoutMs });
  }
}
