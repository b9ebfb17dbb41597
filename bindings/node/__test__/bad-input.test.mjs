// The rows of docs/bad-input.md through the binding: the same message and kind as the
// Rust library, nothing blocks, nothing crashes the process.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { rr, pkg, tempDir } from './support.mjs'

const reader = new rr.Reader()

function error(f) {
  try {
    f()
  } catch (e) {
    assert.ok(e instanceof Error, `not an Error: ${e}`)
    return { code: e.code, message: e.message }
  }
  assert.fail('expected an error')
}

function inTemp(use) {
  const [dir, done] = tempDir()
  try {
    return use(dir)
  } finally {
    done()
  }
}

async function inTempAsync(use) {
  const [dir, done] = tempDir()
  try {
    return await use(dir)
  } finally {
    done()
  }
}

test('a FIFO nobody writes to, a socket, /dev/zero, /dev/urandom: refused at once', async () => {
  await inTempAsync(async (dir) => {
    const fifo = path.join(dir, 'fifo')
    execFileSync('mkfifo', [fifo])
    const started = Date.now()
    assert.deepEqual(error(() => reader.read(fifo)), {
      code: 'not_regular_file',
      message: `Not a regular file (fifo): "${fifo}"`,
    })
    await assert.rejects(reader.readAsync(fifo), { code: 'not_regular_file' })
    assert.ok(Date.now() - started < 5000)
    const sock = path.join(dir, 'sock')
    const server = net.createServer().listen(sock)
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      assert.deepEqual(error(() => reader.read(sock)), {
        code: 'not_regular_file',
        message: `Not a regular file (socket): "${sock}"`,
      })
    } finally {
      server.close()
    }
  })
  for (const dev of ['/dev/zero', '/dev/urandom']) {
    assert.deepEqual(error(() => reader.read(dev)), {
      code: 'not_regular_file',
      message: `Not a regular file (character device): "${dev}"`,
    })
  }
})

test('/proc/self/status (size 0, has content): read by streaming, within the byte budget', () => {
  const r = new rr.Reader({ maxBytes: 64 }).read('/proc/self/status')
  assert.ok(r.content.startsWith('Name:'), r.content)
  assert.ok(Buffer.byteLength(r.content) <= 65)
})

test('a NUL byte, a name too long, a symlink loop, too many components: invalid_path', () => {
  inTemp((dir) => {
    const e = error(() => reader.read('a\u0000b'))
    assert.equal(e.code, 'invalid_path')
    assert.match(e.message, /contains a NUL byte/)
    assert.match(error(() => reader.read(path.join(dir, 'n'.repeat(300)))).message, /too long/)
    fs.symlinkSync(path.join(dir, 'b'), path.join(dir, 'a'))
    fs.symlinkSync(path.join(dir, 'a'), path.join(dir, 'b'))
    const loop = error(() => reader.read(path.join(dir, 'a')))
    assert.equal(loop.code, 'invalid_path')
    assert.match(loop.message, /too many levels of symbolic links/)
    const ws = new rr.Workspace(dir)
    const deep = error(() => reader.readIn(ws, 'x/'.repeat(33000) + 'f'))
    assert.equal(deep.code, 'invalid_path')
  })
})

test('.. out of a workspace, absolute paths and links leaving it: outside_workspace', () => {
  inTemp((dir) => {
    fs.mkdirSync(path.join(dir, 'root', 'a'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'outside\n')
    fs.symlinkSync(path.join(dir, 'outside.txt'), path.join(dir, 'root', 'link'))
    const ws = new rr.Workspace(path.join(dir, 'root'))
    for (const p of ['../outside.txt', path.join(dir, 'outside.txt'), 'link', 'a/../../outside.txt']) {
      assert.deepEqual(error(() => reader.readIn(ws, p)), {
        code: 'outside_workspace',
        message: `Path "${p}" is outside the workspace`,
      })
    }
  })
})

test('a protected file under another spelling or through a link; bad patterns refused', () => {
  inTemp((dir) => {
    fs.mkdirSync(path.join(dir, 'secrets'))
    fs.writeFileSync(path.join(dir, 'secrets', 'key'), 'k\n')
    fs.symlinkSync('secrets', path.join(dir, 'alias'))
    const ws = new rr.Workspace(dir, { protect: ['secrets/'] })
    for (const p of ['secrets/key', './secrets/key', 'alias/key', 'secrets/MISSING/..', 'alias/MISSING/..']) {
      assert.deepEqual(error(() => reader.readIn(ws, p)), {
        code: 'protected',
        message: `Access denied: "${p}" is a protected path`,
      })
    }
    const ci = new rr.Workspace(dir, { protect: ['secrets/'], caseInsensitive: true })
    for (const p of ['SECRETS/key', 'ſecrets/key']) assert.equal(error(() => reader.readIn(ci, p)).code, 'protected')
    for (const bad of ['/etc/passwd', '../x', 'a/../b']) {
      const e = error(() => new rr.Workspace(dir, { protect: [bad] }))
      assert.equal(e.code, 'invalid_pattern')
      assert.match(e.message, /^Invalid protected pattern/)
    }
  })
})

test('ESC, LF and quotes in a name are escaped in every message', () => {
  assert.equal(error(() => reader.read('esc\u001b[2J')).message, 'File not found: "esc\\u{1b}[2J"')
  assert.equal(error(() => reader.read('a\nb')).message, 'File not found: "a\\nb"')
})

test('a 5 MB line is cut at 2000 characters; a file over every budget pages', () => {
  inTemp((dir) => {
    const f = path.join(dir, 'min.js')
    fs.writeFileSync(f, 'x'.repeat(5_000_000) + '\n')
    const r = reader.read(f)
    assert.equal(r.cut_lines[0].shown_bytes, 2000)
    assert.equal(r.cut_lines[0].total_bytes, 5_000_000)
    const paged = new rr.Reader({ maxLineChars: 0 }).read(f)
    assert.equal(paged.truncated.reason, 'max_bytes')
    assert.ok(paged.truncated.next_start_byte > 0)
  })
})

test('a deep read past the scan budget: scan_budget, saying how far the count got', () => {
  inTemp((dir) => {
    const f = path.join(dir, 'lines.txt')
    fs.writeFileSync(f, 'abcdefghij\n'.repeat(400_000))
    const e = error(() => new rr.Reader({ maxScanBytes: 1 << 20, cacheBytes: 0 }).read(f, { lines: '399000:+1' }))
    assert.equal(e.code, 'scan_budget')
    assert.match(e.message, /^Read stopped: counting the lines of/)
  })
})

test('a 4 GiB sparse file with a few KiB of text: a deep line and a tail in milliseconds', () => {
  inTemp((dir) => {
    // As tests/sparse.rs: lines 1-3000 at the start, 3001-3100 at 2 GiB, 3101-3200 at
    // the very end; holes between.
    const GIB = 1024 ** 3
    const numbered = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}\n`).join('')
    const f = path.join(dir, 'sparse.txt')
    const fd = fs.openSync(f, 'w')
    fs.writeSync(fd, numbered(1, 3000))
    fs.writeSync(fd, numbered(3001, 3100), 2 * GIB)
    const tail = numbered(3101, 3200)
    fs.writeSync(fd, tail, 4 * GIB - tail.length)
    fs.closeSync(fd)
    const started = Date.now()
    assert.equal(reader.read(f, { lines: '500:501' }).content, 'line 500\nline 501\n')
    const last = reader.read(f, { tail: 1 })
    assert.equal(last.content, 'line 3200\n')
    assert.equal(last.total_lines, 3200)
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`)
  })
})

test('JSON tool arguments that are negative, fractional or not numbers are refused by name', () => {
  const tool = new rr.DialectTool('read_file')
  const r = tool.respond({ path: '/etc/hostname', start_byte: -5 })
  assert.equal(r.is_error, true)
  assert.match(r.text, /Invalid start_byte: expected a non-negative integer, got -5/)
  for (const args of ['{not json', '[]', 'null']) assert.equal(tool.respond(args).is_error, true)
})

test('wrong argument types throw Errors; nothing crashes the process', () => {
  for (const f of [
    () => reader.read(42),
    () => reader.read(),
    () => reader.read('x', 'lines'),
    () => reader.read('x', { lines: { a: 1 } }),
    () => reader.readIn({}, 'x'),
    () => new rr.Reader('max'),
    () => new rr.Workspace(7),
    () => new rr.DialectTool(7),
    () => new rr.DialectTool('codex', { workspace: {} }),
    () => new rr.DialectTool('codex', { roots: [1] }),
    () => new rr.DialectTool({ name: 'x' }),
  ]) {
    assert.throws(f, Error)
  }
})

test('a file the process may not read: permission_denied (as an unprivileged user when root)', (t) => {
  inTemp((dir) => {
    const f = path.join(dir, 'private.txt')
    fs.writeFileSync(f, 'private\n')
    fs.chmodSync(f, 0o000)
    if (process.getuid() !== 0) {
      assert.deepEqual(error(() => reader.read(f)), {
        code: 'permission_denied',
        message: `Permission denied: "${f}"`,
      })
      return
    }
    // As root every file is readable: ask a child running as `nobody`.
    fs.chmodSync(dir, 0o755)
    const script = `const rr = require(${JSON.stringify(pkg)}); try { rr.Reader && new rr.Reader().read(${JSON.stringify(f)}) } catch (e) { console.log(JSON.stringify({code: e.code, message: e.message})) }`
    const child = spawnSync(process.execPath, ['-e', script], { uid: 65534, gid: 65534, encoding: 'utf8' })
    if (child.status !== 0 || !child.stdout.trim()) {
      t.skip(`the addon does not load as nobody here (${child.stderr.trim().split('\n')[0]})`)
      return
    }
    assert.deepEqual(JSON.parse(child.stdout), { code: 'permission_denied', message: `Permission denied: "${f}"` })
  })
})
