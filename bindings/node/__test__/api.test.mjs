// The API as a user calls it: Reader and its selections, Workspace, DialectTool,
// presets, errors with `code`, and the Promise forms.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { pkg, rr, repo, tempDir } from './support.mjs'

const sample = path.join(repo, 'tests', 'data', 'sample.txt')
const sampleLines = fs.readFileSync(sample, 'utf8').split('\n')

/** Asserts that `f()` throws (or rejects) an Error with `code` (and `parameter`). */
async function fails(f, code, parameter) {
  let caught
  try {
    await f()
  } catch (e) {
    caught = e
  }
  assert.ok(caught instanceof Error, `expected an Error with code ${code}, got ${caught}`)
  assert.equal(caught.code, code, caught.message)
  if (parameter !== undefined) assert.equal(caught.parameter, parameter)
  return caught
}

test('the README example: lines 40-42 of tests/data/sample.txt', () => {
  const r = new rr.Reader().read(sample, { lines: '40:+2' })
  assert.equal(r.content, sampleLines.slice(39, 42).join('\n') + '\n')
  assert.deepEqual(r.lines, { start: 40, end: 42 })
  assert.equal(r.total_lines, 60)
  assert.equal(r.path, sample)
  // A result is an object over the Rust result; toJSON() is the Rust result's JSON, which
  // JSON.stringify writes, with modified_ns exact (a string: nanoseconds are past 2^53).
  assert.ok(r instanceof rr.ReadResult)
  assert.equal(r.fingerprint.modified_ns, fs.statSync(sample, { bigint: true }).mtimeNs.toString())
  const json = r.toJSON()
  assert.deepEqual(JSON.parse(JSON.stringify(r)), json)
  assert.deepEqual(Object.keys(json).sort(), [
    'adjustments', 'bom', 'bytes', 'content', 'cut_lines', 'encoding', 'encoding_confidence',
    'file_size', 'fingerprint', 'invalid_utf8', 'is_partial', 'line_ending', 'lines', 'omitted',
    'path', 'percent_of_file', 'requested', 'resolved_path', 'total_lines', 'truncated',
  ])
  for (const [k, v] of Object.entries(json)) assert.deepEqual(r[k], v, k)
  // render() of the object, of its JSON and the method agree.
  assert.equal(r.render('cat-n'), rr.render(r, 'cat-n'))
  assert.equal(rr.render(json, 'json'), rr.render(r, 'json'))
  assert.match(r.render('json'), new RegExp(`"modified_ns":${json.fingerprint.modified_ns}[,}]`))
})

test('a whole read: the content is the result\'s own read-only string, hashed only for its fingerprint', () => {
  const [dir, done] = tempDir()
  try {
    const f = path.join(dir, 'whole.txt')
    fs.writeFileSync(f, 'let x = 1;\n'.repeat(400))
    const reader = new rr.Reader({ maxLines: 0, maxBytes: 0 })
    const r = reader.read(f)
    assert.equal(r.content, fs.readFileSync(f, 'utf8'))
    // Every field is a getter of the class over the object's private state: no key of
    // its own, and nothing to assign (the text is what was read).
    assert.deepEqual(Object.getOwnPropertyNames(r), [])
    assert.deepEqual(Object.keys(r), [])
    assert.equal(typeof Object.getOwnPropertyDescriptor(rr.ReadResult.prototype, 'content').get, 'function')
    assert.throws(() => { r.content = 'changed' }, TypeError)
    // Only a read makes one.
    assert.throws(() => new rr.ReadResult(), /a ReadResult is what a read returns/)
    assert.equal(r.toJSON().content, r.content)
    // The fingerprint (hashed when asked) is the same for an unchanged file, the JSON's,
    // and another after a change.
    const again = reader.read(f)
    assert.deepEqual(again.fingerprint, r.fingerprint)
    assert.match(r.fingerprint.content_hash, /^[0-9a-f]{16}$/)
    assert.deepEqual(r.toJSON().fingerprint, r.fingerprint)
    fs.writeFileSync(f, 'let x = 2;\n'.repeat(400))
    assert.notEqual(reader.read(f).fingerprint.content_hash, r.fingerprint.content_hash)
    assert.equal(r.render('plain'), 'let x = 1;\n'.repeat(400))
  } finally {
    done()
  }
})

test('read is a method of each reader: its own options, in a worker too, on a Reader only', async () => {
  const [dir, done] = tempDir('rangeread-node-read-method-')
  try {
    const f = path.join(dir, 'ten.txt')
    fs.writeFileSync(f, Array.from({ length: 10 }, (_, i) => `line ${i + 1}\n`).join(''))
    const three = new rr.Reader({ maxLines: 3 })
    const all = new rr.Reader({ maxLines: 0 })
    // Read in turns: each reader keeps its own budgets.
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(three.read(f).lines, { start: 1, end: 3 })
      assert.deepEqual(all.read(f).lines, { start: 1, end: 10 })
    }
    // Nothing the method uses inside is on the class.
    assert.equal(rr.Reader.prototype._handle, undefined)
    assert.deepEqual(Object.keys(all), [])
    assert.equal(rr.Reader.prototype.read.name, 'read')
    // Another object as the receiver is refused, not read as a reader.
    assert.throws(() => rr.Reader.prototype.read.call({}, f), TypeError)
    assert.throws(() => rr.Reader.prototype.read.call(new rr.Workspace(dir), f), TypeError)
    // A worker thread loads its own copy of the module, with its own method.
    const { Worker } = await import('node:worker_threads')
    const code = `
      const { parentPort, workerData } = require('node:worker_threads')
      const rr = require(workerData.pkg)
      parentPort.postMessage(new rr.Reader({ maxLines: 2 }).read(workerData.f).content)`
    const worker = new Worker(code, { eval: true, workerData: { pkg, f } })
    const got = await new Promise((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
    })
    assert.equal(got, 'line 1\nline 2\n')
  } finally {
    done()
  }
})

test('paths of every length around 1 KiB, multi-byte characters at the edge, read whole', () => {
  const [dir, done] = tempDir('rangeread-node-long-path-')
  try {
    const reader = new rr.Reader()
    for (let extra = 0; extra < 12; extra++) {
      // Directories of 200 bytes of 'é' (2 bytes each), then a file name that brings
      // the whole path's UTF-8 to 1,012 + extra bytes.
      let p = dir
      while (Buffer.byteLength(p) < 800) p = path.join(p, 'é'.repeat(100))
      fs.mkdirSync(p, { recursive: true })
      const rest = 1012 + extra - Buffer.byteLength(p) - 1
      const name = 'é'.repeat(Math.floor(rest / 2)) + 'x'.repeat(rest % 2)
      const f = path.join(p, name)
      assert.equal(Buffer.byteLength(f), 1012 + extra)
      fs.writeFileSync(f, `file ${extra}\n`)
      const r = reader.read(f)
      assert.equal(r.content, `file ${extra}\n`)
      assert.equal(r.path, f)
    }
  } finally {
    done()
  }
})

test('read makes the same result as readAsync: every field, on every kind of common file', async () => {
  const [dir, done] = tempDir('rangeread-node-same-result-')
  try {
    const files = {
      'lf.txt': 'one\ntwo\nthree\n',
      'crlf.txt': 'one\r\ntwo\r\n',
      'mixed.txt': 'one\r\ntwo\nthree',
      'none.txt': 'no line end',
      'empty.txt': '',
      'bom.txt': '\uFEFFwith a mark\n',
      'utf8.txt': 'café ✓ 😀\n'.repeat(40),
      'big.txt': 'a line of text\n'.repeat(2000),
      'long.txt': 'x'.repeat(5000) + '\n',
      'latin1.txt': Buffer.from('caf\xe9 na\xefve\n', 'latin1'),
      'invalid.txt': Buffer.from([0x61, 0x62, 0xff, 0x0a]),
      'é and ✓ name.txt': 'named\n',
    }
    const selections = [undefined, { lines: '2:3' }, { head: 1 }, { tail: 1 }, { bytes: [1, 5] }, { lines: '50:60' }, { maxLines: 1 }]
    const readers = [new rr.Reader(), new rr.Reader({ maxLines: 0, maxBytes: 0 }), new rr.Reader({ maxLines: 2 })]
    for (const [name, body] of Object.entries(files)) {
      const f = path.join(dir, name)
      fs.writeFileSync(f, body)
      for (const reader of readers) {
        for (const sel of selections) {
          let sync, rejected
          try {
            sync = reader.read(f, sel)
          } catch (e) {
            sync = e
          }
          const later = await reader.readAsync(f, sel).catch((e) => {
            rejected = e
          })
          const what = `${name} ${JSON.stringify(sel)}`
          if (sync instanceof Error) {
            assert.equal(rejected?.code, sync.code, what)
            continue
          }
          assert.ok(sync instanceof rr.ReadResult, what)
          assert.deepEqual(sync.toJSON(), later.toJSON(), what)
          assert.equal(sync.render('cat-n'), later.render('cat-n'), what)
          assert.equal(sync.render('json'), later.render('json'), what)
        }
      }
    }
  } finally {
    done()
  }
})

test('every selection form', () => {
  const reader = new rr.Reader()
  const lines = (sel) => reader.read(sample, sel).lines
  assert.deepEqual(lines({ lines: [40, 42] }), { start: 40, end: 42 })
  assert.deepEqual(lines({ lines: [-3, null] }), { start: 58, end: 60 })
  assert.deepEqual(lines({ offset: 10, limit: 5 }), { start: 10, end: 14 })
  assert.deepEqual(lines({ head: 3 }), { start: 1, end: 3 })
  assert.deepEqual(lines({ tail: 5 }), { start: 56, end: 60 })
  assert.deepEqual(lines({ around: 30, context: 2 }), { start: 28, end: 32 })
  assert.equal(reader.read(sample, { bytes: '0:10' }).content, sampleLines[0].slice(0, 10))
  assert.deepEqual(reader.read(sample, { bytes: [0, 10], snap: 'line' }).bytes.start, 0)
  const whole = reader.read(sample)
  assert.equal(whole.content, fs.readFileSync(sample, 'utf8'))
  const outline = reader.read(path.join(repo, 'src', 'lib.rs'), { outline: true })
  assert.ok(outline.landmarks.length > 0 && outline.complete)
  const block = reader.read(path.join(repo, 'src', 'lib.rs'), { block: outline.landmarks[0].line })
  assert.ok(block.content.length > 0)
})

test('options in camelCase or snake_case; unknown ones named', async () => {
  const a = new rr.Reader({ maxLines: 3 }).read(sample)
  const b = new rr.Reader({ max_lines: 3 }).read(sample)
  assert.deepEqual(a.lines, { start: 1, end: 3 })
  assert.deepEqual(a.truncated, b.truncated)
  const e = await fails(() => new rr.Reader({ maxLnes: 3 }), 'invalid_params', 'maxLnes')
  assert.match(e.message, /maxLines/)
  await fails(() => new rr.Reader({ maxLines: -1 }), 'invalid_params', 'maxLines')
  await fails(() => new rr.Reader().read(sample, { head: 1, tail: 1 }), 'invalid_params', 'tail')
  await fails(() => new rr.Reader().read(sample, { limit: 1 }), 'invalid_params', 'limit')
})

test('errors are Errors with the kind as code, as ENOENT is', async () => {
  const reader = new rr.Reader()
  const e = await fails(() => reader.read('no/such/file.txt'), 'not_found')
  assert.equal(e.message, 'File not found: "no/such/file.txt"')
  await fails(() => reader.read(sample, { lines: '0:1' }), 'zero_line')
  await fails(() => reader.read(sample, { lines: '70:80' }), 'beyond_end')
  await fails(() => reader.read(repo), 'is_directory')
  await fails(() => reader.read(sample, { lines: 'x:y' }), 'invalid_range')
  await fails(() => rr.dialect('no-such-agent'), 'invalid_params')
})

test('the Promise forms answer as the sync ones, and reject with the same errors', async () => {
  const reader = new rr.Reader()
  assert.deepEqual((await reader.readAsync(sample, { tail: 5 })).toJSON(), reader.read(sample, { tail: 5 }).toJSON())
  await fails(() => reader.readAsync('no/such/file.txt'), 'not_found')
  // A bad option rejects the Promise; it does not throw at the call.
  const p = reader.readAsync(sample, { head: 1, tail: 1 })
  assert.ok(p instanceof Promise)
  await fails(() => p, 'invalid_params')
  const [dir, done] = tempDir()
  try {
    fs.writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\n')
    const ws = new rr.Workspace(dir)
    assert.equal((await reader.readInAsync(ws, 'a.txt', { lines: '2:2' })).content, 'two\n')
    assert.deepEqual(await reader.readRawAsync(path.join(dir, 'a.txt'), { head: 1 }), Buffer.from('one\n'))
    assert.deepEqual(await reader.readRawInAsync(ws, 'a.txt', { tail: 1 }), Buffer.from('two\n'))
    assert.equal((await reader.readDocumentAsync(path.join(dir, 'a.txt'))).kind, 'text')
    assert.equal((await reader.readDocumentInAsync(ws, 'a.txt', { head: 1 })).content, 'one\n')
    await fails(() => reader.readInAsync(ws, '../x'), 'outside_workspace')
  } finally {
    done()
  }
})

test('readRaw gives the exact bytes: invalid UTF-8 kept, where content has U+FFFD', () => {
  const [dir, done] = tempDir()
  try {
    const f = path.join(dir, 'latin.txt')
    const bytes = Buffer.from([0x61, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0a, 0x7a, 0x0a])
    fs.writeFileSync(f, bytes)
    const reader = new rr.Reader({ detection: 'assume_utf8' })
    const r = reader.read(f, { lines: '2:2' })
    assert.equal(r.content, 'caf\uFFFD\n')
    assert.deepEqual(r.invalid_utf8, { count: 1, first_offset: 5 })
    const raw = reader.readRaw(f, { lines: '2:2' })
    assert.ok(Buffer.isBuffer(raw))
    assert.deepEqual(raw, bytes.subarray(2, 7))
    // The fingerprint hashes those exact bytes, not the replaced text: a file with
    // 0x80 where this one has 0xe9 reads as the same content with another hash, and the
    // result's JSON rendering carries the same hash as its fingerprint.
    const other = path.join(dir, 'other.txt')
    fs.writeFileSync(other, Buffer.from([0x61, 0x0a, 0x63, 0x61, 0x66, 0x80, 0x0a, 0x7a, 0x0a]))
    const o = reader.read(other, { lines: '2:2' })
    assert.equal(o.content, r.content)
    assert.notEqual(o.fingerprint.content_hash, r.fingerprint.content_hash)
    assert.equal(JSON.parse(r.render('json')).fingerprint.content_hash, r.fingerprint.content_hash)
    assert.equal(rr.render(r, 'cat-n'), r.render('cat-n'))
  } finally {
    done()
  }
})

test('Workspace: root, protect, resolve, isProtected, and reads confined to it', async () => {
  const [dir, done] = tempDir()
  try {
    fs.mkdirSync(path.join(dir, 'src'))
    fs.writeFileSync(path.join(dir, 'src', 'main.rs'), 'fn main() {}\n')
    fs.writeFileSync(path.join(dir, '.env'), 'KEY=secret\n')
    const ws = new rr.Workspace(dir, { protect: ['.env*'] })
    assert.equal(ws.root, dir)
    assert.deepEqual(ws.protect, ['.env*'])
    assert.equal(ws.resolve('src/main.rs'), path.join(dir, 'src', 'main.rs'))
    assert.equal(ws.isProtected('.env'), true)
    assert.equal(ws.isProtected('src/main.rs'), false)
    const reader = new rr.Reader({ maxLines: 0 })
    assert.equal(reader.readIn(ws, 'src/main.rs', { lines: '1:1' }).content, 'fn main() {}\n')
    await fails(() => reader.readIn(ws, '.env'), 'protected')
    await fails(() => reader.readIn(ws, '/etc/passwd'), 'outside_workspace')
    await fails(() => ws.resolve('../outside'), 'outside_workspace')
    await fails(() => new rr.Workspace(dir, { protect: ['/etc/passwd'] }), 'invalid_pattern')
    await fails(() => new rr.Workspace(path.join(dir, 'missing')), 'not_found')
    const ci = new rr.Workspace(dir, { protect: ['secrets/'], caseInsensitive: true })
    assert.equal(ci.isProtected('SECRETS/key'), true)
  } finally {
    done()
  }
})

test('DialectTool: definition, respond, respondAsync, the dialect getter, JSON-text args', async () => {
  const [dir, done] = tempDir()
  try {
    fs.writeFileSync(path.join(dir, 'x.rs'), 'a\nb\nc\n')
    const ws = new rr.Workspace(dir)
    const tool = new rr.DialectTool('codex', { workspace: ws })
    const def = tool.definition()
    assert.equal(def.name, 'read_file')
    assert.equal(typeof def.description, 'string')
    assert.equal(def.input_schema.type, 'object')
    const r = tool.respond({ file_path: path.join(dir, 'x.rs'), offset: 2, limit: 1 })
    assert.deepEqual(Object.keys(r).sort(), ['is_error', 'items', 'media', 'notes', 'record', 'structured', 'text'])
    assert.equal(r.text, 'L2: b')
    assert.equal(r.is_error, false)
    assert.deepEqual(r.items, [{ type: 'text', text: 'L2: b' }])
    const text = JSON.stringify({ file_path: path.join(dir, 'x.rs'), offset: 3, limit: 1 })
    assert.equal(tool.respond(text).text, 'L3: c')
    assert.deepEqual(await tool.respondAsync({ file_path: path.join(dir, 'x.rs'), offset: 2, limit: 1 }), r)
    const missing = tool.respond({ file_path: path.join(dir, 'nope.rs') })
    assert.equal(missing.is_error, true)
    assert.equal(tool.dialect.preset, 'codex')
    // A changed dialect, given back.
    const d = rr.dialect('codex')
    d.name = 'read_lines'
    assert.equal(new rr.DialectTool(d).definition().name, 'read_lines')
    assert.ok(rr.presets().includes('gemini') && rr.presets().includes('claude-code'))
    await fails(() => new rr.DialectTool('nope'), 'invalid_params')
    await fails(() => new rr.DialectTool('codex', { cacheBites: 1 }), 'invalid_params', 'cacheBites')
    await fails(() => new rr.DialectTool('codex', { workspace: ws, roots: [ws] }), 'invalid_params', 'roots')
  } finally {
    done()
  }
})

test('DialectTool over several roots, with labels', () => {
  const [dir, done] = tempDir()
  try {
    for (const w of ['a', 'b']) {
      fs.mkdirSync(path.join(dir, w))
      fs.writeFileSync(path.join(dir, w, 'f.txt'), `${w}\n`)
      fs.writeFileSync(path.join(dir, w, '.env'), 'secret\n')
    }
    const roots = ['a', 'b'].map((w) => new rr.Workspace(path.join(dir, w), { protect: ['.env'] }))
    const tool = new rr.DialectTool('zed', { roots, labels: { '.env': 'global `private_files`' } })
    assert.match(tool.respond({ path: 'b/f.txt' }).text, /b/)
    const refused = tool.respond({ path: 'a/.env' })
    assert.equal(refused.is_error, true)
    assert.match(refused.text, /private_files/)
  } finally {
    done()
  }
})

test('readDocument: a notebook, and images as a non-enumerable property', () => {
  const [dir, done] = tempDir()
  try {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    )
    fs.writeFileSync(path.join(dir, 'dot.png'), png)
    const image = new rr.Reader().readDocument(path.join(dir, 'dot.png'))
    assert.equal(image.kind, 'image')
    assert.equal(image.images.length, 1)
    assert.equal(image.images[0].mime_type, 'image/png')
    assert.ok(Buffer.isBuffer(image.images[0].data))
    assert.ok(!Object.keys(image).includes('images'))
    const nb = {
      cells: [{ cell_type: 'code', source: ['print(1)\n'], metadata: {}, outputs: [], execution_count: 1 }],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    }
    fs.writeFileSync(path.join(dir, 'n.ipynb'), JSON.stringify(nb))
    const read = new rr.Reader().readDocument(path.join(dir, 'n.ipynb'), { cells: '0' })
    assert.equal(read.kind, 'notebook')
    assert.deepEqual(read.images, [])
  } finally {
    done()
  }
})

test("a project's rule files: a workspace's ruleFiles, and a preset's own", () => {
  const [dir, done] = tempDir()
  try {
    fs.writeFileSync(path.join(dir, '.geminiignore'), 'notes/\n*.secret\n')
    fs.mkdirSync(path.join(dir, 'notes'))
    fs.writeFileSync(path.join(dir, 'notes', 'plan.md'), 'plan\n')
    fs.writeFileSync(path.join(dir, 'a.secret'), 's\n')
    fs.writeFileSync(path.join(dir, 'ok.txt'), 'fine\n')
    const ws = new rr.Workspace(dir, { ruleFiles: ['.geminiignore'] })
    assert.deepEqual(ws.ruleFiles.map((f) => [f.path, f.syntax]), [['.geminiignore', 'gitignore']])
    const reader = new rr.Reader()
    assert.equal(reader.readIn(ws, 'ok.txt').content, 'fine\n')
    for (const p of ['notes/plan.md', 'a.secret', 'notes/missing.md']) {
      assert.throws(
        () => reader.readIn(ws, p),
        (e) => e.code === 'protected' && e.message.includes('.geminiignore'),
      )
    }
    const answer = new rr.DialectTool('gemini', { workspace: new rr.Workspace(dir) }).respond({
      file_path: path.join(fs.realpathSync(dir), 'a.secret'),
    })
    assert.ok(answer.is_error && answer.text.includes('ignored'), answer.text)
  } finally {
    done()
  }
})

test('text policies per reader and per call', (t) => {
  const [dir, done] = tempDir()
  t.after(done)
  const dos = path.join(dir, 'dos.txt')
  fs.writeFileSync(dos, Buffer.concat([Buffer.from('one\r\ntwo\r\n'), Buffer.from('😀'.repeat(1500) + '\n')]))
  const reader = new rr.Reader()
  assert.equal(reader.read(dos, { head: 1 }).content, 'one\r\n')
  const r = reader.read(dos, { head: 2, lineEndings: 'lf' })
  assert.equal(r.content, 'one\ntwo\n')
  assert.deepEqual(r.bytes, { start: 0, end: 10 })
  assert.equal(reader.read(dos, { head: 1 }).content, 'one\r\n', 'a call changes only itself')
  assert.equal(new rr.Reader({ lineEndings: 'lf' }).read(dos, { head: 1 }).content, 'one\n')
  // JavaScript's `length` is UTF-16 units: Gemini CLI's cut of 2,000.
  assert.equal(reader.read(dos, { lines: '3:3' }).content.length, 3001)
  assert.equal(reader.read(dos, { lines: '3:3', lineUnit: 'utf16' }).content.length, 2001)
  assert.equal(reader.read(dos, { maxLines: 1 }).truncated.reason, 'max_lines')
  // (A fresh reader: this one's cache has counted the file's lines by now.)
  assert.equal(new rr.Reader().read(dos, { head: 1, totals: 'if_known' }).total_lines, null)
  assert.throws(() => reader.read(dos, { head: 1, lineEndings: 'crlf' }), { code: 'invalid_params' })
})

test('universal newlines per call and per reader', async (t) => {
  const [dir, done] = tempDir()
  t.after(done)
  const mac = path.join(dir, 'mac.txt')
  fs.writeFileSync(mac, Buffer.from('one\rtwo\r\nthree\n'))
  const reader = new rr.Reader()
  // By default a lone CR is content: two lines.
  assert.equal(reader.read(mac).total_lines, 2)
  const r = reader.read(mac, { lines: '2:3', lineEndings: 'universal' })
  assert.equal(r.content, 'two\nthree\n')
  assert.equal(r.total_lines, 3)
  assert.deepEqual(r.bytes, { start: 4, end: 15 })
  assert.equal(reader.read(mac).total_lines, 2, 'a call changes only itself')
  const paged = new rr.Reader({ lineEndings: 'universal' }).read(mac, { maxLines: 1 })
  assert.equal(paged.content, 'one\n')
  assert.equal(paged.truncated.next_start_line, 2)
  assert.equal(paged.truncated.next_start_byte, 4)
})

test('render marks a cut line in the host\'s words', async (t) => {
  const [dir, done] = tempDir()
  t.after(done)
  const f = path.join(dir, 'long.txt')
  fs.writeFileSync(f, 'short\n' + 'x'.repeat(50) + '\n')
  const r = new rr.Reader({ maxLineChars: 10 }).read(f)
  const kept = '2: ' + 'x'.repeat(10)
  assert.equal(r.render('colon').split('\n')[1], kept + '… [line truncated: 40 more bytes]')
  assert.equal(r.render('colon', '... [truncated]').split('\n')[1], kept + '... [truncated]')
  assert.equal(rr.render(r, 'colon', ' [+{more} from byte {next}]').split('\n')[1], kept + ' [+40 from byte 16]')
  assert.equal(rr.render(r.toJSON(), 'colon', '').split('\n')[1], kept)
})

test('encoding and binary policies, and classify', async (t) => {
  const [dir, done] = tempDir()
  t.after(done)
  const py = path.join(dir, 'a.py')
  fs.writeFileSync(py, Buffer.from([...Buffer.from('import os'), 0xff, 0x0a]))
  const reader = new rr.Reader()
  assert.equal(reader.read(py).encoding, 'windows-1252')
  assert.equal(reader.read(py, { encoding: 'no_legacy' }).content, 'import os\ufffd\n')
  assert.equal((await reader.readAsync(py, { encoding: 'latin1' })).content, 'import os\u00ff\n')
  const bells = path.join(dir, 'bells.txt')
  fs.writeFileSync(bells, Buffer.from([7, 11, 0x0a]))
  assert.throws(() => reader.read(bells), { code: 'binary' })
  assert.equal(reader.read(bells, { controlBytes: 'tolerated' }).content, '\x07\x0b\n')
  // EUC-JP's 0xA1C1: FULLWIDTH TILDE to the WHATWG tables (TextDecoder), WAVE DASH to Python.
  const euc = path.join(dir, 'notice.txt')
  fs.writeFileSync(euc, Buffer.from([0xa1, 0xc1, 0xb8, 0xf8, 0xb3, 0xab, 0x0a]))
  assert.equal(reader.read(euc, { encoding: 'euc-jp' }).content, new TextDecoder('euc-jp').decode(fs.readFileSync(euc)))
  assert.equal(reader.read(euc, { encoding: 'euc-jp' }).content, '\uff5e公開\n')
  assert.equal(reader.read(euc, { encoding: 'euc-jp', codecTables: 'python' }).content, '\u301c公開\n')
  assert.equal(new rr.Reader({ encoding: 'euc-jp', codecTables: 'python' }).read(euc).content, '\u301c公開\n')
  assert.throws(() => reader.read(euc, { codecTables: 'java' }), { code: 'invalid_params' })
  const latin = path.join(dir, 'menu.txt')
  fs.writeFileSync(latin, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))
  assert.equal(rr.classify(latin).encoding, 'windows-1252')
  assert.equal(rr.classify(latin, { encoding: 'no_legacy' }).encoding, 'utf-8')
  assert.deepEqual(new rr.Reader({ invalidUtf8Binary: 0.1 }).classify(latin), {
    verdict: 'binary',
    mime: 'application/octet-stream',
    reason: 'invalid_utf8',
  })
  assert.throws(() => reader.read(latin, { invalidUtf8Binary: 0.1 }), { code: 'binary' })
  const late = path.join(dir, 'late.txt')
  fs.writeFileSync(late, Buffer.concat([Buffer.from('text\n'.repeat(3000)), Buffer.from([0, 0x0a])]))
  assert.equal(reader.read(late, { head: 1 }).content, 'text\n')
  assert.throws(() => reader.read(late, { nulBytes: 'in_read', maxLines: 0 }), { code: 'binary' })
  assert.equal(rr.classify(late, { nulBytes: 'in_read' }).verdict, 'binary')
  assert.throws(() => rr.classify(path.join(dir, 'missing')), { code: 'not_found' })
})

test('an error carries its values as data, and every answer its record', (t) => {
  const [dir, done] = tempDir()
  t.after(done)
  fs.writeFileSync(path.join(dir, 'f.txt'), Array.from({ length: 300 }, (_, i) => `line ${i + 1}\n`).join(''))
  const err = (() => {
    try {
      new rr.Reader().read(path.join(dir, 'f.txt'), { lines: '900:' })
    } catch (e) {
      return e
    }
  })()
  assert.ok(err instanceof Error)
  assert.equal(err.code, 'beyond_end')
  assert.equal(err.parameter, 'start_line')
  assert.deepEqual(err.data, { start: 900, totalLines: 300 })
  const missing = (() => {
    try {
      new rr.Reader().read(path.join(dir, 'nope.txt'))
    } catch (e) {
      return e
    }
  })()
  assert.equal(missing.path, path.join(dir, 'nope.txt'))

  const d = rr.dialect('gemini')
  d.limits.max_lines = 50
  // Gemini CLI 0.61 answers a start past the end with an empty page; without that rule
  // the dialect refuses it, as the error record below needs.
  delete d.lines.past_end
  const tool = new rr.DialectTool(d, { workspace: new rr.Workspace(dir) })
  const r = tool.respond({ file_path: 'f.txt' })
  assert.equal(r.is_error, false, r.text)
  assert.deepEqual(r.record.lines, { start: 1, end: 50 })
  assert.equal(r.record.total_lines, 300)
  assert.equal(r.record.truncated.reason, 'max_lines')
  assert.equal(r.record.truncated.next_start_line, 51)
  const past = tool.respond({ file_path: 'f.txt', start_line: 900 })
  assert.equal(past.is_error, true)
  assert.equal(past.record.error.kind, 'beyond_end')
  assert.equal(past.record.error.parameter, 'start_line')
  assert.equal(past.record.error.values.total_lines, 300)
})

test('DialectTool: the host budgets maxLines, maxBytes, maxLineChars say where to continue', async (t) => {
  const [dir, done] = tempDir()
  t.after(done)
  const file = path.join(dir, 'f.txt')
  fs.writeFileSync(file, Array.from({ length: 300 }, (_, i) => `line ${i + 1}\n`).join(''))
  const workspace = new rr.Workspace(dir)
  let r = new rr.DialectTool('claude-code', { workspace, maxLines: 50 }).respond({ file_path: file })
  assert.equal(r.is_error, false, r.text)
  assert.ok(r.text.includes('50\tline 50') && !r.text.includes('line 51\n'), r.text)
  assert.ok(r.text.includes('<system-reminder>') && r.text.includes('offset=51'), r.text)
  assert.equal(r.record.host_budget, true)
  r = new rr.DialectTool('claude-code', { workspace, maxBytes: 1000 }).respond({ file_path: file })
  const last = r.record.lines.end
  assert.ok(last < 300 && r.text.includes(`offset=${last + 1}`), r.text)
  fs.writeFileSync(path.join(dir, 'long.txt'), 'short\nabcdefghijklmnopqrstuvwxyz\n')
  r = new rr.DialectTool('claude-code', { workspace, maxLineChars: 10 }).respond({ file_path: path.join(dir, 'long.txt') })
  const line = r.text.split('\n')[1]
  assert.ok(line.startsWith('2\tabcdefghij') && !line.includes('abcdefghijk'), r.text)
  assert.ok(line.includes('16 more bytes') && line.includes('byte 16'), r.text)
  assert.equal(r.record.cut_lines[0].next_start_byte, 16)
  await fails(() => new rr.DialectTool('claude-code', { maxLines: 'x' }), 'invalid_params', 'maxLines')
})
