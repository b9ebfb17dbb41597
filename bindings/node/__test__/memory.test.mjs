// 10,000 `respond` calls with flat memory: after a warm-up, the resident set may grow by
// at most 16 MiB over the 10,000 calls (V8's heap settling; a leak of the answers, ~3 KiB
// each, would be ~30 MiB more at every 10,000 calls and show in the second round).

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { rr, tempDir } from './support.mjs'

const BOUND = 16 * 1024 * 1024

test('10,000 respond calls: flat RSS', () => {
  const [dir, done] = tempDir()
  try {
    const f = path.join(dir, 'f.txt')
    fs.writeFileSync(f, Array.from({ length: 2000 }, (_, i) => `line ${i + 1} ${'x'.repeat(40)}\n`).join(''))
    const tool = new rr.DialectTool('gemini', { workspace: new rr.Workspace(dir) })
    const call = (i) => tool.respond({ file_path: f, start_line: 1 + (i % 1900), end_line: 50 + (i % 1900) })
    const round = (n) => {
      for (let i = 0; i < n; i++) {
        const r = call(i)
        if (r.is_error) assert.fail(r.text)
      }
      globalThis.gc?.()
      return process.memoryUsage().rss
    }
    round(2000)
    const before = round(2000)
    const after = round(10_000)
    const again = round(10_000)
    const mib = (b) => (b / 1024 / 1024).toFixed(1)
    console.log(`RSS: ${mib(before)} MiB before, ${mib(after)} MiB after 10,000 calls, ${mib(again)} MiB after 10,000 more`)
    assert.ok(after - before < BOUND, `grew ${mib(after - before)} MiB over 10,000 calls`)
    assert.ok(again - before < BOUND, `grew ${mib(again - before)} MiB over 20,000 calls`)
  } finally {
    done()
  }
})
