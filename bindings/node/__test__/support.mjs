// What every test file shares: the binding (built by `npm run build`), the repository's
// root, and a fresh temporary directory.

import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
export const pkg = path.resolve(here, '..')
export const repo = path.resolve(pkg, '..', '..')

const require = createRequire(import.meta.url)

function load() {
  try {
    return require('../index.js')
  } catch (e) {
    throw new Error(
      `The rangeread addon is not built or does not load (${e.message}). Build it first: cd bindings/node && npm install && npm run build`,
    )
  }
}

export const rr = load()

/** A fresh directory, removed by the returned function. */
export function tempDir(prefix = 'rangeread-node-') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)))
  return [dir, () => fs.rmSync(dir, { recursive: true, force: true })]
}
