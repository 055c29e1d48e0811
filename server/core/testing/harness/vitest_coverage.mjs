//\
/*
R"GLJS(
*/
// greenlight's vitest coverage provider (issue 35; vitest 1 to 4 load it as a custom provider:
// --coverage.enabled=true --coverage.provider=custom
// --coverage.customProviderModule=/work/.gl/vitest_coverage.mjs, replacing the project's own
// coverage settings for this run, thresholds and reports included: nothing is written and no
// threshold can fail a run). vitest runs the tests in workers: there, startCoverage() starts
// js_coverage.js's counting before the test file loads and takeCoverage() hands vitest the
// target's line counts after it ran; vitest sends them to its main process, where the provider
// sums them (onAfterSuiteRun) and sends one `coverage` event per file when the run's coverage
// is generated (before the reporters hear the run end). vitest loads this module through its own
// module runner, in both processes: only node built-ins are imported statically.
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';
import path from 'node:path';

const dir = path.dirname(fileURLToPath(import.meta.url));
const load = createRequire(path.join(dir, 'vitest_coverage.cjs'));
const cov = load(path.join(dir, 'js_coverage.js'));

class GreenlightCoverageProvider {
  constructor() {
    this.name = 'greenlight';
    this.options = {};
    this.merged = new Map();
  }

  initialize(ctx) {
    this.options = (ctx && ctx.config && ctx.config.coverage) || {};
  }

  resolveOptions() {
    // Failing tests still get their coverage (the events go out in generateCoverage anyway).
    return Object.assign({}, this.options, {reportOnFailure: true});
  }

  clean() {}

  onAfterSuiteRun(meta) {
    try {
      if (meta && Array.isArray(meta.coverage)) cov.merge(this.merged, meta.coverage);
    } catch (e) {
      // no coverage is not "0 % covered"
    }
  }

  generateCoverage() {
    try {
      const ev = load(path.join(dir, 'js_events.js'));
      for (const e of cov.events(this.merged)) ev.emit(e);
    } catch (e) {
      // as above
    }
    this.merged = new Map();
    return {};
  }

  reportCoverage() {}

  onTestFailure() {}

  mergeReports() {}
}

export default {
  getProvider() {
    return new GreenlightCoverageProvider();
  },
  startCoverage() {
    cov.start();
  },
  takeCoverage() {
    return cov.take();
  },
  stopCoverage() {},
};
/*
)GLJS" // */
