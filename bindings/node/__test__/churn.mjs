// A writer for the concurrency test (a worker thread): for `ms` milliseconds, truncates
// `file` to a random length, then rewrites it whole, again and again.

import fs from 'node:fs'
import { workerData } from 'node:worker_threads'
import { makeLines, LINE_BYTES } from './lines.mjs'

const { file, lines, ms } = workerData
const end = Date.now() + ms
while (Date.now() < end) {
  const fd = fs.openSync(file, 'r+')
  fs.ftruncateSync(fd, Math.floor(Math.random() * lines * LINE_BYTES))
  fs.closeSync(fd)
  makeLines(file, lines)
}
