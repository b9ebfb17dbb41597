// One way of reading, run in a process of its own by benches/node/run.mjs: prints
// {ms (the operation alone), rss_kib (the process's peak), ok, error?, check}.
//
// usage: node benches/node/way.mjs WAY FILE LINE
//   WAY: rr-deep, rr-tail, rr-tail-ifknown, readFileSync-deep, readFileSync-tail, readline-deep,
//        readline-tail, read-last-lines, gemini-rr, gemini-cli
//   LINE: the first line of the deep read (90% of the file's lines)

import fs from 'node:fs'
import readline from 'node:readline'
import { createRequire } from 'node:module'

// The packages the binding's own npm install brought (bindings/node/node_modules).
const require = createRequire(new URL('../../bindings/node/package.json', import.meta.url))
const [way, file, lineArg] = process.argv.slice(2)
const line = Number(lineArg)
const N = 250

/** Lines `line .. line+249` the way most Node code reads a range: the whole file, split. */
function splitWhole() {
  return fs.readFileSync(file, 'utf8').split('\n')
}

/** The same with a line stream: count up to the range, keep it, stop. */
async function readlineDeep() {
  const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })
  const out = []
  let n = 0
  for await (const l of rl) {
    n++
    if (n >= line) out.push(l)
    if (out.length === N) break
  }
  rl.close()
  return out.join('\n')
}

/** A tail with a line stream: the whole file through a ring of 250 lines. */
async function readlineTail() {
  const rl = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity })
  const ring = []
  for await (const l of rl) {
    ring.push(l)
    if (ring.length > N) ring.shift()
  }
  return ring.join('\n')
}

/** What Gemini CLI's read_file does for a range: the whole file read as text, split,
 * sliced, joined (packages/core/src/utils/fileUtils.ts processSingleFileContent). */
async function geminiCli() {
  const stats = await fs.promises.stat(file)
  if (stats.size > 20 * 1024 * 1024) {
    throw new Error(`File size exceeds the 20MB limit: ${file} (${(stats.size / (1024 * 1024)).toFixed(2)}MB)`)
  }
  const content = await fs.promises.readFile(file, 'utf8')
  const lines = content.split('\n')
  const start = line - 1
  const end = Math.min(start + N, lines.length)
  return lines.slice(start, end).join('\n')
}

const ways = {
  'rr-deep': () => new (require('./index.js').Reader)().read(file, { lines: `${line}:+${N - 1}` }).content,
  'rr-tail': () => new (require('./index.js').Reader)().read(file, { tail: N }).content,
  'rr-tail-ifknown': () => new (require('./index.js').Reader)({ totals: 'if_known' }).read(file, { tail: N }).content,
  'readFileSync-deep': () => splitWhole().slice(line - 1, line - 1 + N).join('\n'),
  'readFileSync-tail': () => splitWhole().slice(-N - 1).join('\n'),
  'readline-deep': readlineDeep,
  'readline-tail': readlineTail,
  'read-last-lines': () => require('read-last-lines').read(file, N),
  'gemini-rr': () => {
    const rr = require('./index.js')
    const r = new rr.DialectTool('gemini').respond({ file_path: file, start_line: line, end_line: line + N - 1 })
    if (r.is_error) throw new Error(r.text)
    return r.text
  },
  'gemini-cli': geminiCli,
}

const f = ways[way]
if (!f) throw new Error(`unknown way ${way}; the ways are ${Object.keys(ways).join(', ')}`)
const t = performance.now()
let ok = true
let error
let check = 0
try {
  const text = await f()
  check = text.length
} catch (e) {
  ok = false
  error = `${e.code ?? ''} ${e.message}`.trim().slice(0, 120)
}
const ms = performance.now() - t
console.log(JSON.stringify({ way, ms, rss_kib: process.resourceUsage().maxRSS, ok, error, check }))
