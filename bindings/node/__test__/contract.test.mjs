// The rules of docs/contract.md through the binding: the same answers, messages and error
// kinds as the Rust library gives.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { rr, tempDir } from './support.mjs'

const reader = new rr.Reader()

/** The error `f()` throws: its code and message. */
function error(f) {
  try {
    f()
  } catch (e) {
    assert.ok(e instanceof Error)
    return { code: e.code, message: e.message }
  }
  assert.fail('expected an error')
}

/** A temporary directory with files `{name: text or Buffer}`; `use(dir)` runs in it. */
function withFiles(files, use) {
  const [dir, done] = tempDir()
  try {
    for (const [name, body] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), body)
    return use((name) => path.join(dir, name), dir)
  } finally {
    done()
  }
}

const sixty = Array.from({ length: 60 }, (_, i) => `line ${i + 1}\n`).join('')

test('lines: numbered from 1, both ends included, errors worded as the contract says', () => {
  withFiles({ 'f.txt': sixty, 'empty.txt': '' }, (f) => {
    const r = reader.read(f('f.txt'), { lines: [10, 20] })
    assert.deepEqual(r.lines, { start: 10, end: 20 })
    assert.equal(r.content.split('\n').length - 1, 11)
    assert.deepEqual(error(() => reader.read(f('f.txt'), { lines: [0, 3] })), {
      code: 'zero_line',
      message: 'start_line (0) is invalid: lines are 1-indexed',
    })
    assert.deepEqual(error(() => reader.read(f('f.txt'), { lines: [5, 3] })), {
      code: 'start_after_end',
      message: 'Invalid range specified: start_line (5) is greater than end_line (3).',
    })
    assert.deepEqual(error(() => reader.read(f('f.txt'), { lines: [61, 70] })), {
      code: 'beyond_end',
      message: 'Invalid range specified: start_line (61) is beyond the end of the file (60 lines).',
    })
    const empty = reader.read(f('empty.txt'), { lines: '1:1' })
    assert.equal(empty.content, '')
    assert.equal(empty.total_lines, 0)
    const clamped = reader.read(f('f.txt'), { lines: '55:100' })
    assert.deepEqual(clamped.lines, { start: 55, end: 60 })
    assert.equal(clamped.adjustments.end_clamped, true)
    assert.equal(reader.read(f('f.txt'), { lines: '-100:' }).content, sixty)
    for (const sel of [{ head: 0 }, { tail: 0 }, { offset: 3, limit: 0 }]) {
      const r = reader.read(f('f.txt'), sel)
      assert.equal(r.content, '')
      assert.equal(r.lines, null)
    }
    assert.deepEqual(error(() => reader.read(f('f.txt'), { lines: 'x:y' })), {
      code: 'invalid_range',
      message: 'Invalid line range "x:y": expected A:B, A:, :B, A:+N or -N:',
    })
  })
})

test('bytes: half-open, clamped, never splitting a character', () => {
  withFiles({ 'f.txt': 'héllo wörld\n' }, (f) => {
    const size = fs.statSync(f('f.txt')).size
    assert.deepEqual(error(() => reader.read(f('f.txt'), { bytes: [8, 4] })), {
      code: 'start_after_end',
      message: 'Invalid range specified: start_byte (8) is greater than end_byte (4).',
    })
    assert.deepEqual(error(() => reader.read(f('f.txt'), { bytes: [size + 1, null] })), {
      code: 'beyond_end',
      message: `Invalid range specified: start_byte (${size + 1}) is beyond the end of the file (${size} bytes).`,
    })
    assert.equal(reader.read(f('f.txt'), { bytes: [size, null] }).content, '')
    const clamped = reader.read(f('f.txt'), { bytes: '0:1000' })
    assert.equal(clamped.adjustments.end_clamped, true)
    assert.deepEqual(clamped.bytes, { start: 0, end: size })
    // Byte 2 is inside `é` (bytes 1-2): the range grows outward to whole characters.
    const snapped = reader.read(f('f.txt'), { bytes: '2:3' })
    assert.equal(snapped.content, 'é')
    assert.deepEqual(snapped.bytes, { start: 1, end: 3 })
    assert.deepEqual(snapped.requested, { bytes: { start: 2, end: 3 } })
    assert.equal(snapped.adjustments.start_adjusted, true)
    assert.equal(reader.read(f('f.txt'), { bytes: '2:3', snap: 'line' }).content, 'héllo wörld\n')
    assert.equal(error(() => reader.read(f('f.txt'), { bytes: [-5, 3] })).code, 'invalid_params')
  })
})

test('text and binary: the content decides; invalid UTF-8 as the policy says', () => {
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  )
  const bad = Buffer.concat([Buffer.from('ok\ncaf'), Buffer.from([0xff]), Buffer.from('\n')])
  withFiles({ 'a.txt': png, 'bad.txt': bad, 'crlf.txt': 'a\r\nb\r\n' }, (f) => {
    assert.deepEqual(error(() => reader.read(f('a.txt'))), {
      code: 'binary',
      message:
        'Binary files are not supported. File detected as image/png. Please use another tool or method to process this file.',
    })
    const lossy = new rr.Reader({ detection: 'assume_utf8' }).read(f('bad.txt'))
    assert.equal(lossy.content, 'ok\ncaf\uFFFD\n')
    assert.deepEqual(lossy.invalid_utf8, { count: 1, first_offset: 6 })
    assert.deepEqual(error(() => new rr.Reader({ strictUtf8: true, detection: 'assume_utf8' }).read(f('bad.txt'))), {
      code: 'invalid_utf8',
      message: 'Invalid UTF-8 at byte 6',
    })
    const crlf = reader.read(f('crlf.txt'))
    assert.equal(crlf.line_ending, 'crlf')
    assert.equal(crlf.content, 'a\r\nb\r\n')
  })
})

test('files that are not plain files', () => {
  withFiles({}, (f, dir) => {
    assert.deepEqual(error(() => reader.read(f('missing'))), {
      code: 'not_found',
      message: `File not found: "${f('missing')}"`,
    })
    assert.deepEqual(error(() => reader.read(dir)), {
      code: 'is_directory',
      message: `Path is a directory: "${dir}"`,
    })
  })
  assert.deepEqual(error(() => reader.read('/dev/zero')), {
    code: 'not_regular_file',
    message: 'Not a regular file (character device): "/dev/zero"',
  })
})

test('budgets: reaching one is never an error; following the pages yields every byte once', () => {
  withFiles({ 'f.txt': sixty }, (f) => {
    const small = new rr.Reader({ maxLines: 7, maxLineChars: 0 })
    const first = small.read(f('f.txt'))
    assert.deepEqual(first.truncated, { reason: 'max_lines', limit: 7, next_start_byte: 49, next_start_line: 8 })
    let text = ''
    let next = 0
    for (let pages = 0; pages < 100; pages++) {
      const r = new rr.Reader({ maxBytes: 100, maxLineChars: 0 }).read(f('f.txt'), { bytes: [next, null] })
      text += r.content
      if (r.truncated == null) break
      next = r.truncated.next_start_byte
    }
    assert.equal(text, sixty)
  })
  withFiles({ 'long.txt': 'x'.repeat(5000) + '\nshort\n' }, (f) => {
    const r = reader.read(f('long.txt'))
    assert.deepEqual(r.cut_lines, [{ line: 1, shown_bytes: 2000, total_bytes: 5000, next_start_byte: 2000 }])
    assert.ok(!r.content.includes('['), 'content never holds a marker')
  })
})

test('what was left out: counts and a summary naming it', () => {
  withFiles({ 'f.txt': sixty }, (f) => {
    const r = reader.read(f('f.txt'), { lines: '10:12' })
    assert.equal(r.is_partial, true)
    assert.equal(r.omitted.before_lines, 9)
    assert.equal(r.omitted.after_lines, 48)
    assert.match(r.omitted.summary, /^Lines 1-9 omitted \(9 lines, .*\); lines 13-60 omitted \(48 lines, .*\)\.$/)
    assert.equal(reader.read(f('f.txt')).omitted, null)
  })
})

test('around a line, and the block that encloses it', () => {
  const source = 'fn a() {\n    1\n}\n\nfn b() {\n    let x = 2;\n    x\n}\n'
  withFiles({ 'm.rs': source }, (f) => {
    assert.deepEqual(reader.read(f('m.rs'), { around: 6, context: 1 }).lines, { start: 5, end: 7 })
    const block = reader.read(f('m.rs'), { block: 6 })
    assert.deepEqual(block.lines, { start: 5, end: 8 })
    const outline = reader.read(f('m.rs'), { outline: true })
    assert.deepEqual(
      outline.landmarks.map((l) => [l.line, l.end_line]),
      [
        [1, 3],
        [5, 8],
      ],
    )
  })
})

test('the result holds the contract\'s fields, and nothing else', () => {
  withFiles({ 'f.txt': sixty }, (f) => {
    const r = reader.read(f('f.txt'), { lines: '2:3' }).toJSON()
    assert.deepEqual(Object.keys(r).sort(), [
      'adjustments', 'bom', 'bytes', 'content', 'cut_lines', 'encoding', 'encoding_confidence',
      'file_size', 'fingerprint', 'invalid_utf8', 'is_partial', 'line_ending', 'lines', 'omitted',
      'path', 'percent_of_file', 'requested', 'resolved_path', 'total_lines', 'truncated',
    ])
    assert.deepEqual(Object.keys(r.fingerprint).sort(), ['content_hash', 'file_size', 'modified_ns'])
  })
})

test('workspaces: outside and protected paths refused in the contract\'s words', () => {
  withFiles({ 'a.txt': 'a\n', '.env': 'SECRET=1\n' }, (f, dir) => {
    const ws = new rr.Workspace(dir, { protect: ['.env'] })
    assert.deepEqual(error(() => reader.readIn(ws, '../etc/passwd')), {
      code: 'outside_workspace',
      message: 'Path "../etc/passwd" is outside the workspace',
    })
    assert.deepEqual(error(() => reader.readIn(ws, '.env')), {
      code: 'protected',
      message: 'Access denied: ".env" is a protected path',
    })
  })
})

test('renderers: each format as the contract words it, with the notes', () => {
  withFiles({ 'f.txt': sixty }, (f) => {
    const r = new rr.Reader({ maxLines: 3 }).read(f('f.txt'), { lines: '2:10' })
    const notes =
      '[Line 1 omitted (1 line, 7 B); lines 5-60 omitted (56 lines, 443 B).]\n' +
      '[... truncated, showing lines 2-4 of 60; continue with start_line=5]\n'
    assert.equal(rr.render(r), 'line 2\nline 3\nline 4\n')
    assert.equal(rr.render(r, 'plain'), 'line 2\nline 3\nline 4\n')
    assert.equal(rr.render(r, 'colon'), '2: line 2\n3: line 3\n4: line 4\n' + notes)
    assert.equal(rr.render(r, 'cat-n'), '     2\tline 2\n     3\tline 3\n     4\tline 4\n' + notes)
    assert.equal(rr.render(r, 'codex'), 'L2: line 2\nL3: line 3\nL4: line 4\n' + notes)
    assert.equal(
      rr.render(r, 'markdown'),
      `# File: ${f('f.txt')} (Lines 2-4)\n\`\`\`text\nline 2\nline 3\nline 4\n\`\`\`\n` + notes,
    )
    assert.equal(
      rr.render(r, 'frontmatter'),
      `---\npath: ${f('f.txt')}\nrange: 2-4\ntotal: 60\nunit: lines\n---\nline 2\nline 3\nline 4\n` + notes,
    )
    const json = JSON.parse(rr.render(r, 'json'))
    assert.equal(json.content, r.content)
    assert.deepEqual(json.lines, r.lines)
    assert.deepEqual(error(() => rr.render(r, 'nope')), {
      code: 'invalid_params',
      message: 'Invalid format "nope": expected plain, colon, cat-n, codex, markdown, frontmatter or json',
    })
    assert.equal(error(() => rr.render({ not: 'a result' })).code, 'invalid_params')
  })
})
