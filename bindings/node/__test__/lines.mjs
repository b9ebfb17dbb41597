// Files of numbered lines, each 64 bytes, so that any line's text follows from its
// number: `0000000042 ` and 52 letters (the alphabet turned by the number), then LF.

import fs from 'node:fs'

export const LINE_BYTES = 64
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz'.repeat(4)

/** The text of line `n` (from 1), terminator included. */
export function lineText(n) {
  const turn = n % 26
  return `${String(n).padStart(10, '0')} ${ALPHABET.slice(turn, turn + 52)}\n`
}

/** Writes `count` lines to `file`, a MiB at a time. */
export function makeLines(file, count) {
  const fd = fs.openSync(file, 'w')
  try {
    const per = 16384
    for (let first = 1; first <= count; first += per) {
      const last = Math.min(count, first + per - 1)
      let chunk = ''
      for (let n = first; n <= last; n++) chunk += lineText(n)
      fs.writeSync(fd, chunk)
    }
  } finally {
    fs.closeSync(fd)
  }
}
