// isbinaryfile's verdicts on the samples of tests/data/isbinaryfile_samples.json, checked
// against the installed release (Gemini CLI core's isbinaryfile 5.0.7).
//
//   node isbinaryfile_check.mjs NODE_MODULES            # checks the recorded verdicts
//   node isbinaryfile_check.mjs NODE_MODULES --write    # records them (after adding a sample
//                                                       # to isbinaryfile_samples.py)
//
// isbinaryfile reads the first 515 bytes of a file and decides on 512 of them; a Buffer
// of the whole sample, with its length, is what it decides on here. The Rust side
// (`ControlBytes::SuspiciousShare`, tests/gemini_binary.rs) is checked against the same
// file: a sample whose verdict this check finds changed fails here first.

import { createRequire } from 'node:module'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const data = path.join(here, '..', 'data', 'isbinaryfile_samples.json')
const modules = process.argv[2]
if (!modules) {
  console.error('usage: node isbinaryfile_check.mjs NODE_MODULES [--write]')
  process.exit(2)
}
const require = createRequire(path.join(modules, 'noop.js'))
const { isBinaryFileSync } = require('isbinaryfile')
const version = require('isbinaryfile/package.json').version
const verdict = (hex) => {
  const b = Buffer.from(hex, 'hex')
  return isBinaryFileSync(b, b.length)
}
const doc = JSON.parse(fs.readFileSync(data, 'utf8'))
if (process.argv.includes('--write')) {
  doc.source = `isbinaryfile ${version} isBinaryFileSync(buffer, length) (tests/differential/isbinaryfile_check.mjs --write)`
  for (const s of doc.samples) s.binary = verdict(s.hex)
  fs.writeFileSync(data, JSON.stringify(doc, null, 1) + '\n')
}
if (version !== '5.0.7') {
  console.error(`isbinaryfile check: isbinaryfile ${version} installed, the samples are 5.0.7's`)
  process.exit(1)
}
const wrong = doc.samples.filter((s) => verdict(s.hex) !== s.binary).map((s) => s.name)
const n = doc.samples.length
console.log(`isbinaryfile check: ${n - wrong.length}/${n} samples as recorded` + (wrong.length ? `; changed: ${wrong}` : ''))
process.exit(wrong.length ? 1 : 0)
