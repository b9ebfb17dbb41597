// A whole small file through the addon against Node's own read, in one process:
// `new Reader({maxLines: 0, maxBytes: 0}).read(p).content` (the file classified, checked
// against the budgets, its lines counted) against `fs.readFileSync(p, 'utf8')`, on files
// of 4 KiB, 64 KiB and 1 MiB of source-like ASCII lines, and on 4 KiB files each read
// once (a host reading files it has not read before: no cache of ours holds them). The
// two ways alternate, ROUNDS
// rounds of CALLS calls each; prints the median time of a call, the ratio rangeread / Node
// and the load average (the machine may be shared: the ratio is what to compare).
//
// usage: node benches/node/whole.mjs [ROUNDS] [CALLS] [--json]   (after: cd bindings/node && npm install && npm run build)
// --json: one JSON line instead of the table (scripts/bench_bindings_whole.py runs it so).

import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..', '..')
const require = createRequire(path.join(repo, 'bindings', 'node', 'package.json'))
const rr = require('./index.js')
const asJson = process.argv.includes('--json')
const numbers = process.argv.slice(2).filter((a) => a !== '--json')
const rounds = Number(numbers[0] ?? 7)
const calls = Number(numbers[1] ?? 50)
const say = asJson ? () => {} : console.log
const report = { binding: 'node', load_before: os.loadavg()[0], rounds, calls, sizes: [] }

function text(size) {
  const line = '    let value = compute(input, &options).unwrap_or_default(); // why\n'
  const body = line.repeat(Math.floor(size / line.length))
  return body + ' '.repeat(size - body.length - 1) + '\n'
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}

function perCall(f, p) {
  let sink = 0
  const t = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) sink += f(p).length
  const dt = Number(process.hrtime.bigint() - t) / 1e3 / calls
  if (sink === 0) throw new Error('nothing read')
  return dt
}

const reader = new rr.Reader({ maxLines: 0, maxBytes: 0 })
const ours = (p) => reader.read(p).content
const node = (p) => fs.readFileSync(p, 'utf8')

/** Alternates the two ways ROUNDS times, `timeOf(f, r, k)` timing a round's calls (us a
 * call), and reports the medians. */
function measure(name, timeOf) {
  const t = { ours: [], node: [] }
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? [['ours', ours], ['node', node]] : [['node', node], ['ours', ours]]
    for (const [k, f] of order) t[k].push(timeOf(f, r, k))
  }
  const [mo, mn] = [median(t.ours), median(t.node)]
  const ratios = t.ours.map((o, i) => o / t.node[i])
  const us = (x) => (x >= 1000 ? `${(x / 1000).toFixed(2)} ms` : `${x.toFixed(1)} us`)
  say(`| ${name} | ${us(mo)} | ${us(mn)} | ${(mo / mn).toFixed(2)}x (rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x) |`)
  report.sizes.push({ name, ours_us: mo, theirs_us: mn, ratio: mo / mn, rounds: ratios })
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rangeread-whole-'))
try {
  say(`load average ${os.loadavg()[0].toFixed(2)}; ${rounds} rounds of ${calls} calls, alternating; medians\n`)
  say('| whole file | rangeread | readFileSync | ratio |')
  say('|---|---:|---:|---:|')
  for (const [size, name] of [[4 << 10, '4 KiB'], [64 << 10, '64 KiB'], [1 << 20, '1 MiB']]) {
    const p = path.join(dir, `whole-${size}.txt`)
    fs.writeFileSync(p, text(size))
    if (ours(p) !== node(p)) throw new Error('the two reads differ')
    measure(name, (f) => perCall(f, p))
  }
  // Files neither way read before: each (round, way) its own CALLS files.
  const fresh = new Map()
  for (let r = 0; r < rounds; r++) {
    for (const k of ['ours', 'node']) {
      const list = Array.from({ length: calls }, (_, i) => path.join(dir, `new-${r}-${k}-${i}.txt`))
      for (const q of list) fs.writeFileSync(q, text(4 << 10).slice(0, -9) + String(q.length).padStart(8, '0') + '\n')
      fresh.set(`${r}-${k}`, list)
    }
  }
  measure('4 KiB, each file new', (f, r, k) => {
    let sink = 0
    const start = process.hrtime.bigint()
    for (const q of fresh.get(`${r}-${k}`)) sink += f(q).length
    if (sink === 0) throw new Error('nothing read')
    return Number(process.hrtime.bigint() - start) / 1e3 / calls
  })
  say(`\nload average after ${os.loadavg()[0].toFixed(2)}`)
  report.load_after = os.loadavg()[0]
  if (asJson) console.log(JSON.stringify(report))
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
