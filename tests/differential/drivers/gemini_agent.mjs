// Gemini CLI's own read_file, from the released @google/gemini-cli-core, over the corpus.
//
//   node gemini_agent.mjs CALLS.json OUT.jsonl ROOT NODE_MODULES
//
// The tool is built as Gemini CLI builds it (config/config.js registers
// `new ReadFileTool(config, messageBus)`) over a real `Config` whose target directory is
// ROOT, and each call goes the scheduler's way: `build(args)` (schema and value
// validation; a throw is sent as `{error: message}`), then `execute()`; a result with
// `error` is sent as its `error.message`, else its `llmContent` (text, or parts whose
// `inlineData` are media items).
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';

const [callsPath, outPath, root, modules] = process.argv.slice(2);
// Gemini CLI keeps its project registry and temp directories under ~/.gemini: a home of
// the run's own, beside its answers.
process.env.HOME = path.join(path.dirname(path.resolve(outPath)), 'gemini-home');
fs.mkdirSync(process.env.HOME, { recursive: true });
const core = await import(
  pathToFileURL(path.join(modules, '@google/gemini-cli-core/dist/index.js')).href
);
const { Config, ReadFileTool, MessageBus, PolicyEngine } = core;

const config = new Config({
  sessionId: 'rangeread-differential',
  targetDir: root,
  cwd: root,
  debugMode: false,
  model: 'gemini-2.5-pro',
  usageStatisticsEnabled: false,
  telemetry: { enabled: false },
});
// What `Config.initialize()` does first; the project temp directory (part of the
// workspace check) needs it.
await config.storage.initialize();
// A host that replaces Gemini's read_file has this directory too (Gemini reads from it and
// names it in its refusals): the preset's side is given it (preset.py --more-roots).
fs.writeFileSync(
  path.join(path.dirname(path.resolve(outPath)), 'project-temp-dir'),
  config.storage.getProjectTempDir() + '\n',
);
const bus = MessageBus && PolicyEngine ? new MessageBus(new PolicyEngine({})) : undefined;
const tool = new ReadFileTool(config, bus);

function media(mime, b64) {
  const raw = Buffer.from(b64, 'base64');
  return {
    mime,
    sha256: crypto.createHash('sha256').update(raw).digest('hex').slice(0, 16),
    bytes: raw.length,
  };
}

const calls = JSON.parse(fs.readFileSync(callsPath, 'utf8'));
const out = fs.openSync(outPath, 'w');
for (const call of calls) {
  let rec;
  try {
    let invocation;
    try {
      invocation = tool.build(call.args);
    } catch (e) {
      rec = { text: e.message, is_error: true, media: [] };
    }
    if (!rec) {
      const res = await invocation.execute({ abortSignal: new AbortController().signal });
      if (res.error) {
        rec = { text: res.error.message, is_error: true, media: [] };
      } else if (typeof res.llmContent === 'string') {
        rec = { text: res.llmContent, is_error: false, media: [] };
      } else {
        const parts = Array.isArray(res.llmContent) ? res.llmContent : [res.llmContent];
        const texts = [];
        const items = [];
        for (const p of parts) {
          if (typeof p === 'string') texts.push(p);
          else if (p.text !== undefined) texts.push(p.text);
          else if (p.inlineData) items.push(media(p.inlineData.mimeType, p.inlineData.data));
        }
        rec = { text: texts.join('\n'), is_error: false, media: items };
      }
    }
  } catch (e) {
    rec = { text: '', is_error: true, media: [], crash: String(e && e.stack ? e.stack.split('\n')[0] : e) };
  }
  fs.writeSync(out, JSON.stringify({ id: call.id, ...rec }) + '\n');
}
fs.closeSync(out);
process.exit(0);
