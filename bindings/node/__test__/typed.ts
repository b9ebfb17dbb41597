// A typed sample: what a TypeScript user writes, checked by `tsc --noEmit -p __test__`
// against the generated index.d.ts (each `@ts-expect-error` line must fail to check).

import * as rr from '../index'
import type { Outline, ReadResult, RangereadError, ToolResponse, DocumentRead } from '../index'

const reader = new rr.Reader({ maxLines: 0, totals: 'if_known' })
const ws = new rr.Workspace('repo', { protect: ['.env*'], caseInsensitive: false })

const r: ReadResult = reader.readIn(ws, 'src/main.rs', { lines: '40:+2' })
const start: number | undefined = r.lines?.start
const content: string = r.content
const outline: Outline = reader.read('src/lib.rs', { outline: true })
const names: Array<string | undefined> = outline.landmarks.map((l) => l.name)
const bytes: Buffer = reader.readRaw('big.log', { bytes: [0, 4096], snap: 'char' })

async function later(): Promise<number> {
  const tail: ReadResult = await reader.readAsync('big.log', { tail: 5 })
  const raw: Buffer = await reader.readRawInAsync(ws, 'big.log', { head: 1 })
  const deep = await new rr.Reader().readInAsync(ws, 'big.log', { around: 100, context: 3 })
  const doc: DocumentRead = await reader.readDocumentAsync('a.pdf', { pages: '2-3' })
  const images = doc.images.map((i) => i.data.length)
  return tail.file_size + raw.length + deep.total_lines! + images.length
}

const tool = new rr.DialectTool('codex', { workspace: ws, cacheBytes: 1 << 20 })
const schema: Record<string, unknown> = tool.definition().input_schema
const answer: ToolResponse = tool.respond({ file_path: '/abs/repo/x.rs', offset: 2 })
const text: string = answer.items.map((i) => (i.type === 'text' ? i.text : i.mime_type)).join('')
const multi = new rr.DialectTool(rr.dialect('zed'), { roots: [ws], labels: { '.env*': 'private' } })
const pending: Promise<ToolResponse> = multi.respondAsync('{"path": "x"}')
const presets: string[] = rr.presets()
const shown: string = rr.render(r, 'cat-n') + rr.render(outline) + r.render('markdown') + rr.render(r.toJSON())
const mtime: bigint | null = r.fingerprint.modified_ns === null ? null : BigInt(r.fingerprint.modified_ns)
const preset: string | null | undefined = tool.dialect.preset

try {
  reader.read('missing')
} catch (e) {
  const err = e as RangereadError
  if (err.code === 'not_found' || err.code === 'invalid_range') console.log(err.parameter)
}

// @ts-expect-error: an unknown option
new rr.Reader({ maxLnes: 3 })
// @ts-expect-error: a selection's value of the wrong type
reader.read('x', { head: '3' })
// @ts-expect-error: an outline is not a ReadResult
const wrong: ReadResult = reader.read('x', { outline: true })

// @ts-expect-error: an unknown format
rr.render(r, 'cat')

export { start, content, names, bytes, later, schema, text, pending, presets, preset, shown, mtime, wrong }
