// Many files, each read once, through one Reader: a host going through a tree it has not
// read before. Past the index cache's budget every read evicts an entry, so this is where
// the cost of eviction shows (before 2026-11-28 it visited every entry: 68 us a read with
// an 8 MiB cache over 60,000 files). Writes FILES files of 4 KiB of source-like ASCII
// lines into a temporary directory, then reads them all with
// `new Reader({maxLines: 0, maxBytes: 0, cacheBytes})` and with
// `fs.readFileSync(p, 'utf8')`, alternating the two ways over ROUNDS rounds (each way its
// own files in each round, so that no cache of ours holds one), and prints the median time
// of a read and the ratio.
//
// usage: node benches/node/new_files.mjs [FILES] [ROUNDS] [CACHE_BYTES]
//   (after: cd bindings/node && npm install && npm run build; defaults 20000 3 8388608)

import { createRequire } from 'node:module'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..', '..')
const require = createRequire(path.join(repo, 'bindings', 'node', 'package.json'))
const { Reader } = require('./index.js')
const files = Number(process.argv[2] ?? 20000)
const rounds = Number(process.argv[3] ?? 3)
const cacheBytes = Number(process.argv[4] ?? 8 << 20)

const line = '    let value = compute(input, &options).unwrap_or_default(); // why\n'
let body = line.repeat(Math.floor(4096 / line.length))
body += ' '.repeat(4096 - body.length - 1) + '\n'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rangeread-new-files-'))
const reader = new Reader({ maxLines: 0, maxBytes: 0, cacheBytes })
const ways = {
  rangeread: (p) => reader.read(p).content.length,
  readFileSync: (p) => fs.readFileSync(p, 'utf8').length,
}
const times = { rangeread: [], readFileSync: [] }
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const load = os.loadavg()[0]
try {
  for (let round = 0; round < rounds; round++) {
    for (const [name, read] of Object.entries(ways)) {
      const paths = []
      for (let i = 0; i < files; i++) {
        const p = path.join(dir, `${name}-${round}-${i}.rs`)
        fs.writeFileSync(p, body)
        paths.push(p)
      }
      let shown = 0
      const start = process.hrtime.bigint()
      for (const p of paths) shown += read(p)
      const us = Number(process.hrtime.bigint() - start) / files / 1000
      if (shown !== files * body.length) throw new Error(`${name} read ${shown} characters`)
      times[name].push(us)
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}
const ours = median(times.rangeread)
const node = median(times.readFileSync)
console.log(
  `load average ${load.toFixed(2)}; ${files} new 4 KiB files a round, ${rounds} rounds, ` +
    `cacheBytes ${cacheBytes}: rangeread ${ours.toFixed(1)} us a read, readFileSync ` +
    `${node.toFixed(1)} us, ${(ours / node).toFixed(2)}x`,
)
