// What every test file shares: the binding (built by `npm run build`, or, with
// RANGEREAD_NODE_PACKAGE naming an installed package directory, that package: how
// scripts/dist_check.sh runs these tests against the npm tarballs), the repository's root,
// and a fresh temporary directory.

import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const installed = process.env.RANGEREAD_NODE_PACKAGE
/** The package the tests load: bindings/node, or the installed one. */
export const pkg = installed ? path.resolve(installed) : path.resolve(here, '..')
export const repo = path.resolve(here, '..', '..', '..')

const require = createRequire(import.meta.url)

function load() {
  try {
    return require(installed ? pkg : '../index.js')
  } catch (e) {
    if (installed) throw new Error(`RANGEREAD_NODE_PACKAGE=${installed} does not load: ${e.message}`)
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
