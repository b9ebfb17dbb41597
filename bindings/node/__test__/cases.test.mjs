// bindings/cases/contract.json (cases of docs/contract.md and docs/bad-input.md) through the
// Node binding: the answers and error kinds the Rust core gives
// (bindings/core/tests/cases.rs) and the Python binding gives (test_cases.py) for the same
// file. Each case's options are passed as the file spells them (snake_case), which the
// binding takes as it takes camelCase.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { repo, rr, tempDir } from './support.mjs'

const { cases } = JSON.parse(fs.readFileSync(path.join(repo, 'bindings/cases/contract.json'), 'utf8'))

function materialize(root, files) {
  for (const f of files) {
    const p = path.join(root, f.path)
    fs.mkdirSync(path.dirname(p), { recursive: true })
    if (f.dir) fs.mkdirSync(p, { recursive: true })
    else if ('text' in f) fs.writeFileSync(p, f.text)
    else if ('base64' in f) fs.writeFileSync(p, Buffer.from(f.base64, 'base64'))
    else if ('from_repo' in f) fs.copyFileSync(path.join(repo, f.from_repo), p)
    else throw new Error(`file spec ${JSON.stringify(f)}`)
  }
}

/** `want` is contained in `got` (objects by their keys, anything else equal). */
function subset(want, got) {
  if (want !== null && typeof want === 'object' && !Array.isArray(want)) {
    return got !== null && typeof got === 'object' && Object.entries(want).every(([k, v]) => subset(v, got[k] ?? null))
  }
  return isDeepStrictEqual(want, got)
}

for (const c of cases) {
  test(`contract case ${c.id}`, () => {
    const [dir, done] = tempDir()
    try {
      const root = fs.realpathSync(dir)
      materialize(root, c.files)
      let out
      try {
        const reader = new rr.Reader(c.reader ?? {})
        const doc = c.method === 'read_document'
        if ('workspace' in c) {
          const ws = new rr.Workspace(root, c.workspace)
          out = doc ? reader.readDocumentIn(ws, c.path, c.call) : reader.readIn(ws, c.path, c.call)
        } else {
          const p = path.join(root, c.path)
          out = doc ? reader.readDocument(p, c.call) : reader.read(p, c.call)
        }
      } catch (e) {
        assert.ok(c.expect.error, `expected a result, got ${e.code}: ${e.message}`)
        assert.ok(e instanceof Error)
        assert.equal(e.code, c.expect.error.kind)
        if ('message' in c.expect.error) {
          assert.equal(e.message.replaceAll(root, '{root}'), c.expect.error.message)
        }
        return
      }
      assert.ok(c.expect.result, `expected an error, got ${JSON.stringify(out)}`)
      assert.ok(subset(c.expect.result, out), `want ${JSON.stringify(c.expect.result)}\ngot  ${JSON.stringify(out)}`)
    } finally {
      done()
    }
  })
}
