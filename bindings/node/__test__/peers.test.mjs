// The peers' own test cases (tests/peers/*.json, the shared truth) through the Node
// binding: each case's files written under a fresh root, its config applied as the peer's
// own harness applies it, the call answered by `DialectTool.respond`, and the answer
// checked as tests/peers.rs checks it. Ported from tests/peers.rs (`materialize`,
// `setup`, `zed_setup`, `fold`, `dialect_for`, `changed`, `check`, `answer_text`); the
// counts must be the Rust harness's library counts.

import { test } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { rr, repo } from './support.mjs'

const PEERS_DIR = path.join(repo, 'tests', 'peers')
const PEERS = fs
  .readdirSync(PEERS_DIR)
  .filter((n) => n.endsWith('.json'))
  .map((n) => n.slice(0, -'.json'.length))
  .sort()

/** Writes a case's files under `root`. */
function materialize(root, files = []) {
  for (const f of files) {
    const p = path.join(root, f.path)
    fs.mkdirSync(path.dirname(p), { recursive: true })
    if (f.dir) {
      fs.mkdirSync(p, { recursive: true })
      continue
    }
    if (f.symlink != null) {
      fs.symlinkSync(f.symlink.replaceAll('{root}', root), p)
      continue
    }
    let bytes
    if (f.text != null) bytes = Buffer.from(f.text, 'utf8')
    else if (f.base64 != null) bytes = Buffer.from(f.base64, 'base64')
    else if (f.repeat != null) bytes = Buffer.from(f.repeat.text.repeat(f.repeat.times), 'utf8')
    else if (f.lines != null) {
      let s = ''
      for (let i = 1; i <= f.lines.count; i++) s += `${f.lines.prefix}${i}\n`
      bytes = Buffer.from(s, 'utf8')
    } else bytes = Buffer.alloc(0)
    fs.writeFileSync(p, bytes)
  }
}

/** Replaces `{root}` in every string of a JSON value. */
function withRoot(v, root) {
  if (typeof v === 'string') return v.replaceAll('{root}', root)
  if (Array.isArray(v)) return v.map((x) => withRoot(x, root))
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withRoot(x, root)]))
  }
  return v
}

/** `.` dropped and `..` folded by the spelling alone, as Node's `path.resolve` does. */
function fold(p) {
  const out = []
  const abs = p.startsWith('/')
  for (const c of p.split('/')) {
    if (c === '' || c === '.') continue
    if (c === '..') out.pop()
    else out.push(c)
  }
  return (abs ? '/' : '') + out.join('/')
}

const within = (dir, root) => dir === root || dir.startsWith(root + '/')

function newSetup(root) {
  return { root, protect: [], dialect: [], own: [], moreRoots: [], labels: [], maxBytes: null }
}

/** Zed's test project (see `zed_setup` in tests/peers.rs). */
function zedSetup(config, root) {
  const list = (v) => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : [])
  const s = newSetup(root)
  const label = (patterns, scope, setting) => {
    for (const p of patterns) s.labels.push([p, `${scope} \`${setting}\``])
    return patterns
  }
  const global = label(list(config.private_files), 'global', 'private_files')
  global.push(...label(list(config.file_scan_exclusions), 'global', 'file_scan_exclusions'))
  const roots = []
  for (const w of list(config.worktrees)) {
    const ws = config.worktree_settings?.[w]
    let own = []
    if (ws) {
      own = label(list(ws.private_files), 'worktree', 'private_files')
      own.push(...label(list(ws.file_scan_exclusions), 'worktree', 'file_scan_exclusions'))
    }
    roots.push([path.join(root, w), own])
  }
  if (typeof config.global_skills_dir === 'string') {
    const dir = config.global_skills_dir.replaceAll('{root}', root)
    fs.mkdirSync(dir, { recursive: true })
    roots.push([dir, []])
  }
  if (roots.length === 0) throw new Error('zed: no worktrees')
  const [[first, own], ...more] = roots
  s.root = first
  s.own = own
  s.moreRoots = more
  s.protect = global
  return s
}

/** A case's `config`, as the peer's own test harness applies it. */
function setup(peer, c, root) {
  const config = c.config ?? {}
  if (peer === 'zed') return zedSetup(config, root)
  const s = newSetup(root)
  for (const [k, raw] of Object.entries(config)) {
    const v = withRoot(raw, root)
    const key = `${peer} ${k}`
    if (key === 'rust-mcp-filesystem allowed_directories') {
      if (!Array.isArray(v) || v.length !== 1) {
        throw new Error(`allowed_directories ${JSON.stringify(v)}: one directory only`)
      }
      s.root = path.join(root, v[0])
    } else if (key === 'mcp-filesystem allowedDirectories') {
      const dirs = (Array.isArray(v) ? v : []).filter((d) => typeof d === 'string').map(fold)
      for (const d of dirs.filter((d) => within(d, root))) fs.mkdirSync(d, { recursive: true })
      if (dirs.length === 0) throw new Error(`allowedDirectories ${JSON.stringify(v)}: none given`)
      s.root = dirs[0]
      s.moreRoots = dirs.slice(1).map((d) => [d, []])
    } else if (key === 'gemini project_temp_dir') {
      const dir = fold(String(v ?? ''))
      if (!within(dir, root)) s.moreRoots.push([dir, []])
    } else if (key === 'forge max_read_lines') {
      if (typeof v !== 'number') throw new Error(`max_read_lines ${v}`)
      s.dialect.push(['/limits/max_lines', Math.max(v, 1)])
    } else if (key === 'forge max_line_chars') {
      s.dialect.push(['/limits/max_line_chars', v])
      s.dialect.push(['/output/line_max_bytes', v])
    } else if (key === 'forge max_file_size_bytes' || key === 'forge max_image_size_bytes') {
      const n = (k) => (typeof config[k] === 'number' ? config[k] : 0)
      const max = Math.max(n('max_file_size_bytes'), n('max_image_size_bytes'))
      s.dialect.push(['/caps/file_size_any_read/bytes', max])
    } else if (key === 'forge model_input_modalities') {
      const modalities = Array.isArray(v) ? v.filter((m) => typeof m === 'string') : ['unknown']
      if (!modalities.includes('image')) {
        const extensions = ['.png', '.jpg', '.jpeg', '.gif', '.bmp', '.webp', '.svg', '.pdf']
        const message = `Tool 'read' requires image modality, but model only supports: ${modalities.join(', ')}`
        s.dialect.push([
          '/paths/refused_extensions',
          [{ names: extensions, message, match_suffix: true }],
        ])
      }
    } else if (key === 'openhands workspace_root') {
      if (typeof v !== 'string') s.dialect.push(['/paths/suggest_absolute', null])
      else s.root = v
    } else if (key === 'gemini respectGeminiIgnore' && v === false) {
      // Gemini CLI's respectGeminiIgnore: false stops reading .geminiignore (its other
      // rule sources stay).
      const files = rr.dialect('gemini').rules.files.filter((f) => f.path !== '.geminiignore')
      s.dialect.push(['/rules/files', files])
    } else if (key === 'crush maxContentSize') {
      s.maxBytes = typeof v === 'number' ? v : null
    } else if (key === 'crush supports_images' && v === true) {
      // The preset's own answer to image files.
    } else if (key === 'claude-code cwd' && v === root) {
      // The workspace root.
    } else if (key === 'claude-code context_left') {
      if (v === 'ample') s.dialect.push(['/caps/lift/room_tokens', 200000])
      else if (v !== 'unknown') throw new Error(`context_left ${v}: unknown or ample`)
    } else {
      throw new Error(`config ${k} is not applied by the harness`)
    }
  }
  return s
}

/** The tool a call names (`call.tool`, else the peer, else the file's `PEER/tool`). */
function dialectFor(peer, call, file) {
  const name = typeof call.tool === 'string' ? `${peer}/${call.tool}` : peer
  try {
    return rr.dialect(name)
  } catch (e) {
    if (typeof file.tool !== 'string') throw e
    return rr.dialect(`${peer}/${file.tool}`)
  }
}

/** `dialect` with the setup's changes (JSON pointer, value) made. */
function changed(dialect, changes) {
  for (const [pointer, value] of changes) {
    const keys = pointer.split('/').slice(1)
    let at = dialect
    for (const key of keys.slice(0, -1)) {
      if (at[key] == null || typeof at[key] !== 'object') at[key] = {}
      at = at[key]
    }
    at[keys[keys.length - 1]] = value
  }
  return dialect
}

/** The tool over the setup's root(s). */
function toolFor(s, dialect) {
  const ws = (dir, own) => new rr.Workspace(dir, { protect: [...s.protect, ...own] })
  if (s.moreRoots.length === 0 && s.own.length === 0 && s.labels.length === 0) {
    return new rr.DialectTool(dialect, { workspace: ws(s.root, []) })
  }
  const roots = [ws(s.root, s.own), ...s.moreRoots.map(([d, own]) => ws(d, own))]
  // A pattern's first label is the one a refusal quotes (as `Roots::label`).
  const labels = {}
  for (const [p, l] of s.labels) if (!(p in labels)) labels[p] = l
  return new rr.DialectTool(dialect, { roots, labels })
}

/** What the answer must be (`media`: its items' MIME types and base64 data). */
function check(e, text, isError, media) {
  const why = []
  if (e.media_type != null && media[0]?.[0] !== e.media_type) {
    why.push(`media type ${e.media_type} expected, got ${media[0]?.[0]}`)
  }
  if (e.inline_data != null) {
    const want = e.inline_data
    const found = media.some(
      ([mime, data]) =>
        (want.mimeType === undefined || want.mimeType === mime) &&
        (want.data === undefined || want.data === data),
    )
    if (!found) {
      why.push(`no media item ${JSON.stringify(want)}; got ${JSON.stringify(media.map(([m, d]) => [m, d.length]))}`)
    }
  }
  if (isError !== e.is_error) why.push(`is_error ${isError}, expected ${e.is_error}`)
  if (e.text != null && text !== e.text) {
    why.push(`text differs:\n  got:      ${JSON.stringify(text)}\n  expected: ${JSON.stringify(e.text)}`)
  }
  if (e.lines != null) {
    const got = text.split('\n')
    if (JSON.stringify(got) !== JSON.stringify(e.lines)) why.push(`lines differ: got ${JSON.stringify(got)}`)
  }
  for (const c of e.contains ?? []) {
    if (!text.includes(c)) why.push(`does not contain ${JSON.stringify(c)}: ${JSON.stringify(text)}`)
  }
  for (const c of e.not_contains ?? []) {
    if (text.includes(c)) why.push(`contains ${JSON.stringify(c)}`)
  }
  if (e.starts_with != null && !text.startsWith(e.starts_with)) {
    why.push(`does not start with ${JSON.stringify(e.starts_with)}: ${JSON.stringify(text)}`)
  }
  if (e.json_subset != null) {
    let v
    try {
      v = JSON.parse(text)
    } catch {
      v = undefined
    }
    if (v === undefined || !subset(e.json_subset, v)) {
      why.push(`JSON does not contain ${JSON.stringify(e.json_subset)}: ${text}`)
    }
  }
  return why
}

function subset(want, got) {
  if (isObject(want) && isObject(got)) {
    return Object.entries(want).every(([k, v]) => k in got && subset(v, got[k]))
  }
  return deepEqual(want, got)
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)

function deepEqual(a, b) {
  try {
    assert.deepStrictEqual(a, b)
    return true
  } catch {
    return false
  }
}

/** The text of an answer as the model reads it: its blocks joined. */
const answerText = (r) => (r.notes != null ? `${r.text}\n${r.notes}` : r.text)

/** A case's `needs` this build meets: the binding has both document readers. */
const needsMet = (n) =>
  n == null || ['notebooks', 'images', 'pdf', 'audio', 'video'].includes(n) ||
  (n === 'symlinks' && process.platform !== 'win32')

/** Runs one case: null when it passes, else why not ('skip: ...' when skipped). */
function runCase(peer, file, c) {
  if (!needsMet(c.needs)) return `skip: needs ${c.needs}`
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rangeread-peers-'))
  try {
    const root = fs.realpathSync(dir)
    materialize(root, c.files)
    const s = setup(peer, c, root)
    const call = withRoot(c.call, root)
    const dialect = changed(dialectFor(peer, call, file), s.dialect)
    if (s.maxBytes != null) dialect.limits.max_bytes = s.maxBytes
    delete call.tool
    const tool = toolFor(s, dialect)
    const r = tool.respond(call)
    const expect = withRoot(c.expect, root)
    const media = r.media.map((m) => [m.mime_type, m.data])
    const why = check(expect, answerText(r), r.is_error, media)
    return why.length ? why.join('; ') : null
  } catch (e) {
    return `threw ${e.code ?? ''} ${e.stack}`
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const totals = { passed: 0, failed: 0, skipped: 0, cases: 0 }

for (const peer of PEERS) {
  test(`${peer}: the peer's cases through the binding`, () => {
    const file = JSON.parse(fs.readFileSync(path.join(PEERS_DIR, `${peer}.json`), 'utf8'))
    assert.equal(file.peer, peer)
    totals.cases += file.cases.length
    const problems = []
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const original of file.cases) {
      let c = original
      if (c.peer_ignored != null) {
        if (c.peer_answers == null) {
          problems.push(`${peer}/${c.id}: peer_ignored without peer_answers`)
          continue
        }
        c = { ...c, expect: c.peer_answers }
      }
      const why = runCase(peer, file, c)
      if (why === null) passed++
      else if (why.startsWith('skip: ')) {
        skipped++
        console.error(`skipped ${peer}/${c.id}: ${why.slice(6)}`)
      } else {
        failed++
        problems.push(`${peer}/${c.id}: ${why}`)
      }
    }
    totals.passed += passed
    totals.failed += failed
    totals.skipped += skipped
    console.log(`${peer} through the binding: ${passed} passed, ${failed} failed, ${skipped} skipped`)
    assert.deepEqual(problems, [], `${problems.length} problem(s):\n${problems.join('\n')}`)
  })
}

// The Rust harness passes every case (its PENDING list is empty): so must the binding.
test('every peer case passed, as in the Rust harness', () => {
  console.log(`all peers through the binding: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped (of ${totals.cases})`)
  assert.equal(totals.passed, totals.cases)
})

test('each preset publishes the schema and description its peer publishes', () => {
  for (const peer of PEERS) {
    const file = JSON.parse(fs.readFileSync(path.join(PEERS_DIR, `${peer}.json`), 'utf8'))
    if (!rr.presets().includes(peer)) continue
    const def = new rr.DialectTool(peer).definition()
    if (typeof file.tool === 'string') assert.equal(def.name, file.tool, `${peer}: name`)
    if (isObject(file.schema)) assert.deepEqual(def.input_schema, file.schema, `${peer}: input schema`)
    if (typeof file.description === 'string') assert.equal(def.description, file.description, `${peer}: description`)
  }
})
