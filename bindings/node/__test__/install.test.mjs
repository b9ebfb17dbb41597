// Installed as users install it: a fresh project runs `npm install <path to
// bindings/node>` (offline: the package has no dependencies) and requires 'rangeread'.
// With RANGEREAD_NODE_TARBALLS (paths separated by the platform's path delimiter), it
// installs those instead: the released main and platform packages (scripts/dist_check.sh).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { pkg, repo, tempDir } from './support.mjs'

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

test('a fresh project can npm install the package directory and require it', () => {
  const [dir, done] = tempDir('rangeread-project-')
  try {
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'host', version: '1.0.0', private: true }))
    const tarballs = process.env.RANGEREAD_NODE_TARBALLS
    const what = tarballs ? tarballs.split(path.delimiter) : [pkg]
    execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', ...what], { cwd: dir, stdio: 'pipe' })
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
    assert.ok(manifest.dependencies.rangeread, JSON.stringify(manifest))
    const sample = path.join(repo, 'tests', 'data', 'sample.txt')
    const script = `const rr = require('rangeread'); const r = new rr.Reader().read(${JSON.stringify(sample)}, {lines: '40:+2'}); console.log(JSON.stringify([r.lines, rr.presets().length > 5]))`
    const out = execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' })
    assert.deepEqual(JSON.parse(out), [{ start: 40, end: 42 }, true])
  } finally {
    done()
  }
})
