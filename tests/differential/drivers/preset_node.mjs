// The crate's preset over the same calls, through the Node binding (`DialectTool`).
//
//   node preset_node.mjs CALLS.json OUT.jsonl PRESET ROOT BINDING_DIR
//
// The answer is what a host sends: the response's items, text joined with a newline and
// media by hash.
import fs from 'node:fs';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const [callsPath, outPath, preset, root, bindingDir] = process.argv.slice(2);
const require = createRequire(import.meta.url);
const { DialectTool, Workspace } = require(bindingDir);

const tool = new DialectTool(preset, { workspace: new Workspace(root) });
const calls = JSON.parse(fs.readFileSync(callsPath, 'utf8'));
const out = fs.openSync(outPath, 'w');
for (const call of calls) {
  let rec;
  try {
    const r = tool.respond(call.args);
    const texts = [];
    const media = [];
    for (const item of r.items) {
      if (item.type === 'text') texts.push(item.text);
      else {
        const raw = Buffer.from(item.data, 'base64');
        media.push({
          mime: item.mime_type,
          sha256: crypto.createHash('sha256').update(raw).digest('hex').slice(0, 16),
          bytes: raw.length,
        });
      }
    }
    rec = { text: texts.join('\n'), is_error: r.is_error, media };
  } catch (e) {
    rec = { text: '', is_error: true, media: [], crash: String(e) };
  }
  fs.writeSync(out, JSON.stringify({ id: call.id, ...rec }) + '\n');
}
fs.closeSync(out);
