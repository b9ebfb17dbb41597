// Many reads at once, a file changing under a read, and the event loop kept free: 8
// Promises reading one 1 GiB file, a reader racing a writer that truncates and rewrites,
// and a timer that keeps ticking during a deep read of the 1 GiB file. The file is made
// in a temporary directory and removed after.

import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { rr, tempDir } from './support.mjs'
import { makeLines, LINE_BYTES, lineText } from './lines.mjs'

const GIB = 1024 ** 3
const LINES = GIB / LINE_BYTES
let dir
let done
let big

before(() => {
  ;[dir, done] = tempDir('rangeread-node-big-')
  big = path.join(dir, 'big.log')
  makeLines(big, LINES)
  assert.equal(fs.statSync(big).size, GIB)
})

after(() => done?.())

test('8 Promises read one 1 GiB file at once, each its own part', async () => {
  const reader = new rr.Reader()
  const depths = [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.99]
  const reads = depths.map((d, i) => {
    const start = Math.floor(LINES * d)
    return i % 2
      ? reader.readAsync(big, { lines: `${start}:+249` }).then((r) => [start, r])
      : new rr.Reader().readAsync(big, { lines: [start, start + 249] }).then((r) => [start, r])
  })
  const tails = Array.from({ length: 2 }, () => reader.readAsync(big, { tail: 250 }))
  for (const [start, r] of await Promise.all(reads)) {
    assert.deepEqual(r.lines, { start, end: start + 249 })
    assert.equal(r.content, Array.from({ length: 250 }, (_, k) => lineText(start + k)).join(''))
  }
  for (const t of await Promise.all(tails)) {
    assert.deepEqual(t.lines, { start: LINES - 249, end: LINES })
    assert.ok(t.content.endsWith(lineText(LINES)))
  }
})

test('the event loop keeps running during a deep read and a count of the 1 GiB file', async () => {
  let ticks = 0
  const timer = setInterval(() => ticks++, 5)
  try {
    const started = performance.now()
    // A fresh reader with no cache: the read counts 90% of the file's lines.
    const reader = new rr.Reader({ cacheBytes: 0, threads: 1 })
    const deep = Math.floor(LINES * 0.9)
    const r = await reader.readAsync(big, { lines: `${deep}:+249` })
    const counted = await reader.readAsync(big, { tail: 1 })
    const ms = performance.now() - started
    assert.equal(r.content.slice(0, LINE_BYTES), lineText(deep))
    assert.equal(counted.total_lines, LINES)
    // The timer ran through the reads (a blocked loop ticks once at most, after them): at
    // least a tick per 50 ms, leaving room for a loaded machine.
    console.log(`${ticks} ticks of a 5 ms timer during ${ms.toFixed(0)} ms of reads`)
    assert.ok(ticks >= Math.max(3, Math.floor(ms / 50)), `${ticks} ticks in ${ms.toFixed(0)} ms`)
  } finally {
    clearInterval(timer)
  }
})

test('a reader while a writer truncates and rewrites the file: consistent results or `changed`', async () => {
  const f = path.join(dir, 'churn.log')
  const lines = 400_000 // 25.6 MB
  makeLines(f, lines)
  const writer = new Worker(new URL('./churn.mjs', import.meta.url), {
    workerData: { file: f, lines, ms: 3000 },
  })
  const stopped = new Promise((resolve, reject) => {
    writer.once('exit', resolve)
    writer.once('error', reject)
  })
  const reader = new rr.Reader()
  const seen = { ok: 0, changed: 0, other: new Map() }
  let writing = true
  stopped.then(() => (writing = false))
  while (writing) {
    const start = 1 + Math.floor(Math.random() * (lines - 300))
    const batch = [
      reader.readAsync(f, { lines: `${start}:+99` }),
      reader.readAsync(f, { tail: 50 }),
      new rr.Reader({ cacheBytes: 0 }).readAsync(f, { bytes: [start * 10, start * 10 + 6400], snap: 'line' }),
    ]
    for (const p of await Promise.allSettled(batch)) {
      if (p.status === 'fulfilled') {
        // Whatever state it saw, every whole line is one the writer wrote there.
        const got = p.value.content.split('\n').slice(0, -1)
        for (const line of got) assert.match(line, /^(\d{10}) [a-z]{52}$/)
        if (p.value.lines && p.value.content.length > 0 && p.value.bytes.start % LINE_BYTES === 0) {
          assert.equal(got[0] + '\n', lineText(p.value.lines.start))
        }
        seen.ok++
      } else {
        const code = p.reason.code
        assert.ok(p.reason instanceof Error)
        if (code === 'changed') seen.changed++
        else seen.other.set(code, (seen.other.get(code) ?? 0) + 1)
      }
    }
  }
  await stopped
  // A truncated file can also be shorter than the range asked: `beyond_end`.
  for (const code of seen.other.keys()) assert.ok(['beyond_end'].includes(code), `unexpected ${code}`)
  assert.ok(seen.ok > 0, JSON.stringify(seen))
  console.log(`reads during the churn: ${seen.ok} answered, ${seen.changed} 'changed', ${JSON.stringify([...seen.other])}`)
})
