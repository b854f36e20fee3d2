// Renders refman's citation fixture library with citeproc-js, the CSL engine Zotero uses, and
// writes the strings refman's own rendering (citeproc-py) is compared with:
//
//   tests/fixtures/citations/library.json   the fixture library (CSL-JSON items)   -> input
//   refman/data/styles/*.csl                the six styles refman ships            -> input
//   citeproc-py's locales-*.xml             the locales refman renders with        -> input
//   tests/fixtures/citations/expected.json  every style, as text and as HTML (entries, and
//                                           in-text citations)                    -> output
//
// Usage: cd tools/citeproc-js && npm install && node render.js
//
// The locales are read from the citeproc-py that refman's virtual environment holds (found
// with ../../.venv/bin/python, or $REFMAN_PYTHON, or python3), so that both engines see the
// same style, locale and data. Each style is rendered in its default locale (Nature: en-GB),
// else en-US, as refman does, and again with the engine's language set to each of LANGUAGES
// (as `refman cite --language` does; a style with a default locale keeps it). The items are
// cited in the order of library.json (the order numeric styles such as IEEE number them in,
// unless the style sorts its bibliography).
'use strict';

const childProcess = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const CSL = require('citeproc');

const ROOT = path.resolve(__dirname, '..', '..');
const STYLE_DIR = path.join(ROOT, 'refman', 'data', 'styles');
const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'citations');
const LIBRARY = path.join(FIXTURES, 'library.json');
const EXPECTED = path.join(FIXTURES, 'expected.json');
// The same order as refman.core.citations.STYLES.
const STYLES = [
  'apa',
  'ieee',
  'chicago-author-date',
  'harvard-cite-them-right',
  'nature',
  'association-for-computing-machinery',
];
const FORMATS = ['text', 'html'];
// Languages refman is compared in besides each style's own (tests/unit/core/test_citations.py):
// every style is rendered in each of them too, with the engine's language set to it.
const LANGUAGES = ['de-DE', 'fr-FR'];
// In-text citations compared besides the bibliographies (as Zotero's Copy Citation makes
// them: only the cited items registered): each item alone, then these clusters, cited in the
// order given, then all the items together.
const CLUSTERS = [
  ['smith2020bayesian', 'smith2020markov'],
  ['smith2020markov', 'doe2023attention', 'smith2020bayesian'],
  ['vanleeuwen1990handbook', 'lamport1990chapter', 'vanbeethoven2019particles'],
  ['who2023covid', 'kestrel2025operations', 'berg2024working'],
];

function sha256(text) {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

function python() {
  if (process.env.REFMAN_PYTHON) return process.env.REFMAN_PYTHON;
  const venv = path.join(ROOT, '.venv', 'bin', 'python');
  return fs.existsSync(venv) ? venv : 'python3';
}

function citeprocPyLocales() {
  const script =
    'import citeproc, os; print(os.path.join(os.path.dirname(citeproc.__file__), "data", "locales"))';
  const found = childProcess.execFileSync(python(), ['-c', script], { encoding: 'utf8' }).trim();
  if (!fs.existsSync(path.join(found, 'locales-en-US.xml'))) {
    throw new Error(`no locales-en-US.xml in ${found}`);
  }
  return found;
}

function render(styleXml, format, sys, ids, lang) {
  const engine = new CSL.Engine(sys, styleXml, lang);
  engine.setOutputFormat(format);
  engine.updateItems(ids);
  const [meta, entries] = engine.makeBibliography();
  if (meta.bibliography_errors.length) {
    throw new Error(`bibliography errors: ${JSON.stringify(meta.bibliography_errors)}`);
  }
  return {
    bibstart: meta.bibstart,
    bibend: meta.bibend,
    entries: meta.entry_ids.map((entryIds, n) => [String(entryIds[0]), entries[n]]),
  };
}

function cite(styleXml, format, sys, ids, lang) {
  const engine = new CSL.Engine(sys, styleXml, lang);
  engine.setOutputFormat(format);
  engine.updateItems(ids);
  return engine.makeCitationCluster(ids.map((id) => ({ id })));
}

function main() {
  const libraryText = fs.readFileSync(LIBRARY, 'utf8');
  const items = JSON.parse(libraryText);
  const byId = Object.fromEntries(items.map((item) => [String(item.id), item]));
  const localeDir = citeprocPyLocales();
  const locales = {};
  const sys = {
    retrieveLocale: (lang) => {
      const file = `locales-${lang}.xml`;
      if (!fs.existsSync(path.join(localeDir, file))) return false;
      const text = fs.readFileSync(path.join(localeDir, file), 'utf8');
      locales[file] = sha256(text);
      return text;
    },
    // A copy, so that nothing the engine does to an item can leak into another rendering.
    retrieveItem: (id) => JSON.parse(JSON.stringify(byId[id])),
  };
  const expected = {
    about:
      'Written by tools/citeproc-js/render.js (cd tools/citeproc-js && npm install && node render.js); do not edit by hand.',
    engine: { citeproc: require('citeproc/package.json').version, processor: CSL.PROCESSOR_VERSION },
    library_sha256: sha256(libraryText),
    locales,
    styles: {},
    languages: {},
    citations: {},
  };
  for (const style of STYLES) {
    const styleXml = fs.readFileSync(path.join(STYLE_DIR, `${style}.csl`), 'utf8');
    const rendered = { sha256: sha256(styleXml) };
    for (const format of FORMATS) {
      rendered[format] = render(styleXml, format, sys, Object.keys(byId));
    }
    expected.styles[style] = rendered;
    const clusters = Object.keys(byId).map((id) => [id]).concat(CLUSTERS, [Object.keys(byId)]);
    expected.citations[style] = {};
    for (const format of FORMATS) {
      expected.citations[style][format] = clusters.map((ids) => [ids, cite(styleXml, format, sys, ids)]);
    }
    for (const lang of LANGUAGES) {
      const inLanguage = (expected.languages[lang] = expected.languages[lang] || {});
      inLanguage[style] = {};
      for (const format of FORMATS) {
        inLanguage[style][format] = render(styleXml, format, sys, Object.keys(byId), lang);
      }
      inLanguage[style].citations = clusters.map((ids) => [ids, cite(styleXml, 'text', sys, ids, lang)]);
    }
  }
  fs.writeFileSync(EXPECTED, JSON.stringify(expected, null, 2) + '\n', 'utf8');
  console.log(
    `wrote ${path.relative(ROOT, EXPECTED)}: ${items.length} items x ${STYLES.length} styles x ` +
      `${FORMATS.length} formats (citeproc ${expected.engine.citeproc}, locale from ${localeDir})`,
  );
}

main();
