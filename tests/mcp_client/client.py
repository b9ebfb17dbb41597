"""Drive mcp-server/src/main.rs with the official Python MCP SDK (`mcp` on PyPI).

    python client.py SERVER_BINARY

Builds a workspace of fixtures in a temporary directory, starts the server on it over
stdio, and checks tools/list and tools/call: lines in three dialects, bytes, tail N,
paging past the budget to the end, a binary file, paths outside the root, a protected
path, invalid parameters, and that the server still answers a good call after all the
bad ones. With `--sessions-store claude` on tests/data/sessions/claude/projects it checks
read_session_messages too (schema, title search, id lookup with limit/order, errors as
isError results); a second server without a store must not list that tool. The
mcp-filesystem preset runs over two allowed directories, and the gemini preset beside it. Prints one line per check and `N passed, M failed`; exits 1 on any failure.
"""

import base64
import os
import sys
import tempfile
import traceback

import json

import anyio
from mcp import Client, StdioServerParameters

HERE = os.path.dirname(os.path.abspath(__file__))
CLAUDE_PROJECTS = os.path.join(HERE, "..", "data", "sessions", "claude", "projects")
C1 = "7f3c9a10-0000-4000-8000-000000000001"
C3 = "7f3c9a10-0000-4000-8000-000000000003"

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000a49444154789c6300010000050001"
    "0d0a2db40000000049454e44ae426082"
)
BINARY_PNG = (
    "Binary files are not supported. File detected as image/png. "
    "Please use another tool or method to process this file."
)
# A zip archive's local file header: binary, and no document the server reads.
ZIP = b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(20)
BINARY_ZIP = (
    "Binary files are not supported. File detected as application/zip. "
    "Please use another tool or method to process this file."
)
LINES = 5000

passed = 0
failed = 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def field(obj, snake, camel):
    """A result field, whichever spelling this SDK version gives it."""
    return getattr(obj, snake, getattr(obj, camel, None))


def texts(result):
    return [c.text for c in result.content if getattr(c, "type", "text") == "text"]


def make_fixtures(tmp):
    root = os.path.join(tmp, "root")
    os.makedirs(os.path.join(root, "sub"))
    lines = "".join(f"line {i}\n" for i in range(1, LINES + 1))
    with open(os.path.join(root, "lines.txt"), "w") as f:
        f.write(lines)
    with open(os.path.join(root, "utf8.txt"), "w", encoding="utf-8") as f:
        f.write("a\u00e9\u20ac\U0001f980\n")
    # One 300 KiB line with multi-byte characters: paged by bytes, never split.
    long_line = ("abc\u00e9" * 61440) + "\n"
    with open(os.path.join(root, "long.txt"), "w", encoding="utf-8") as f:
        f.write(long_line)
    with open(os.path.join(root, "longline.md"), "w", encoding="utf-8") as f:
        f.write("short\n" + "\u00e9" * 2500 + "END\nafter\n")
    with open(os.path.join(root, "main.rs"), "w") as f:
        f.write("fn main() {\n    run();\n}\n\nstruct A;\n")
    with open(os.path.join(root, "pixel.png"), "wb") as f:
        f.write(PNG)
    with open(os.path.join(root, "archive.zip"), "wb") as f:
        f.write(ZIP)
    with open(os.path.join(root, "server.pem"), "w") as f:
        f.write("-----BEGIN PRIVATE KEY-----\n")
    with open(os.path.join(tmp, "outside.txt"), "w") as f:
        f.write("outside the root\n")
    os.symlink(os.path.join(tmp, "outside.txt"), os.path.join(root, "sub", "escape"))
    return root, lines, long_line


async def page_through(client, path, budget_unit):
    """Follow the continuation from the first page to the last; returns the text."""
    args = {"path": path} if budget_unit == "lines" else {"path": path, "start_byte": 0}
    pages = []
    for _ in range(1000):
        r = await client.call_tool("read_file", args)
        if field(r, "is_error", "isError"):
            raise AssertionError(f"error while paging {path}: {texts(r)}")
        pages.append(texts(r)[0])
        meta = field(r, "structured_content", "structuredContent")
        t = meta.get("truncated")
        if not t:
            return "".join(pages), len(pages)
        if t.get("next_start_line") is not None and budget_unit == "lines":
            args = {"path": path, "start_line": t["next_start_line"]}
        else:
            args = {"path": path, "start_byte": t["next_start_byte"]}
    raise AssertionError("paging did not end")


async def whole_large_answers(server, root, long_line):
    """An answer over 128 KiB is written as it is escaped, a piece at a time: the SDK
    gets the same text, whole, as from a message written in one go."""
    args = ["--root", root, "--max-lines", "0", "--max-bytes", "0", "--max-line-chars", "0"]
    async with Client(StdioServerParameters(command=server, args=args), read_timeout_seconds=60) as c:
        escaped = "q\"b\\s\tt c\u00e9\U0001f980\r\n" * 30000
        with open(os.path.join(root, "escaped.txt"), "w", encoding="utf-8", newline="") as f:
            f.write(escaped)
        for name, want in [("long.txt", long_line), ("escaped.txt", escaped)]:
            r = await c.call_tool("read_file", {"path": name})
            got = texts(r)
            check(f"a whole {len(want.encode()) >> 10} KiB answer arrives whole ({name})",
                  not is_error(r) and got[:1] == [want] and structured(r).get("file_size") == len(want.encode()),
                  (len(got[0]) if got else None, len(want), got[1:]))
        os.remove(os.path.join(root, "escaped.txt"))


async def run(server, root, lines, long_line):
    with anyio.fail_after(300):
        await whole_large_answers(server, root, long_line)
        await session(server, root, lines, long_line)
        await session_scoped_to_root(server, root)
        await session_without_store(server, root)
        await presets(server, root)
        await peer_presets(server, root)


def is_error(r):
    return field(r, "is_error", "isError") is True


def structured(r):
    return field(r, "structured_content", "structuredContent") or {}


async def preset_client(server, root, preset, extra=()):
    args = ["--preset", preset, "--root", root, "--protect", "*.pem", *extra]
    return Client(StdioServerParameters(command=server, args=args), read_timeout_seconds=60)


async def presets(server, root):
    """Each --preset serves its seed's tool: name, schema, answers, errors, cut lines."""
    # session_read_file (Cursor's read_file in a session's workspace).
    async with await preset_client(server, root, "session_read_file",
                                   ["--session", f"proj={root}",
                                    "--sessions-store", "claude", "--sessions-dir", CLAUDE_PROJECTS,
                                    "--all-projects"]) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        check("session_read_file preset: tools", list(tools) == ["session_read_file", "read_session_messages"],
              list(tools))
        props = field(tools["session_read_file"], "input_schema", "inputSchema").get("properties", {})
        check("session_read_file preset: Cursor's parameters in the schema",
              {"session", "path", "start_line_one_indexed", "end_line_one_indexed_inclusive",
               "should_read_entire_file", "offset", "limit", "start_byte", "explanation"} == set(props),
              sorted(props))

        async def call(args):
            r = await c.call_tool("session_read_file", {"session": "proj", **args})
            return r, json.loads(texts(r)[0])

        r, v = await call({"target_file": "lines.txt", "start_line_one_indexed": 10.0,
                           "end_line_one_indexed_inclusive": 12, "should_read_entire_file": False})
        check("session_read_file: a short range widened to 200 lines, integral floats",
              not is_error(r) and v.get("linesRead") == {"start": 1, "end": 200}
              and v.get("linesRequested") == {"start": 10, "end": 12}
              and structured(r) == v,
              (v.get("linesRead"), v.get("linesRequested")))
        check("session_read_file: resolvedPath is the resolved absolute path, as the seed says",
              v.get("resolvedPath") == os.path.join(os.path.realpath(root), "lines.txt"), v.get("resolvedPath"))
        r, v = await call({"target_file": "lines.txt", "offset": 1000, "limit": 400})
        summary = v.get("omittedContent", {}).get("summary", "")
        check("session_read_file: legacy offset/limit, 250-line cap named in the note",
              v.get("linesRead") == {"start": 1000, "end": 1249}
              and "stopped by the line limit (250 lines per call); continue with start_line_one_indexed=1250." in summary,
              (v.get("linesRead"), summary))
        r, v = await call({"target_file": "lines.txt", "should_read_entire_file": True,
                           "start_line_one_indexed": 1, "end_line_one_indexed_inclusive": 250})
        check("session_read_file: the whole file up to the byte budget",
              v.get("linesRead") == {"start": 1, "end": 5000} and v.get("content", "").count("\n") == 5000,
              v.get("linesRead"))
        r, v = await call({"target_file": "longline.md"})
        summary = v.get("omittedContent", {}).get("summary", "")
        check("session_read_file: a cut line is listed and start_byte reads the rest",
              v.get("cutLines") == [{"line": 2, "shownBytes": 4000, "totalBytes": 5003, "nextStartByte": 4006}]
              and "read the rest with start_byte=4006" in summary, (v.get("cutLines"), summary[:200]))
        r, v = await call({"target_file": "longline.md", "start_byte": 4006})
        check("session_read_file: start_byte continues the cut line",
              not is_error(r) and v.get("content") == "\u00e9" * 500 + "END\nafter\n", v.get("content"))
        for name, args, message in [
            ("unknown session", {"session": "nope", "target_file": "lines.txt"}, 'Session not found: "nope"'),
            ("spelled parameter", {"target_file": "lines.txt", "start_line_one_indexed": -1},
             "Invalid start_line_one_indexed: expected a non-negative integer, got -1"),
            ("end before start", {"target_file": "lines.txt", "start_line_one_indexed": 9,
                                  "end_line_one_indexed_inclusive": 3},
             "Invalid range specified: start_line_one_indexed (9) is greater than end_line_one_indexed_inclusive (3)."),
            ("fractional", {"target_file": "lines.txt", "limit": 2.5},
             "Invalid limit: expected a non-negative integer, got 2.5"),
        ]:
            a = {"session": "proj", **args} if "session" not in args else args
            r = await c.call_tool("session_read_file", a)
            v = structured(r)
            check(f"session_read_file error: {name}",
                  is_error(r) and v.get("success") is False and v.get("error", "").startswith(message), v)
        r = await c.call_tool("read_session_messages", {"searchTitle": "RELEASE notes"})
        check("session_read_file preset serves read_session_messages beside it",
              not is_error(r) and json.loads(texts(r)[0]).get("sessionId") == C3, texts(r))

    # file_read (the seed's numbered Markdown block).
    async with await preset_client(server, root, "file_read") as c:
        tools = [t.name for t in (await c.list_tools()).tools]
        check("file_read preset: tools", tools == ["file_read"], tools)
        r = await c.call_tool("file_read", {"filename": "main.rs", "start_line": 0, "end_line": 0})
        want = ("# File: main.rs\n\n```rust\n   1 | fn main() {\n   2 |     run();\n   3 | }\n   4 | \n"
                "   5 | struct A;\n```\n\n## Outline\n- 1: fn main() {\n- 5: struct A;\n\n")
        check("file_read: a full read (0/0) is the block and the outline", texts(r)[0] == want, texts(r))
        r = await c.call_tool("file_read", {"filename": "lines.txt", "start_line": 10, "end_line": 11})
        want = ("# File: lines.txt (Lines 10-11)\n\n```text\n  10 | line 10\n  11 | line 11\n```\n\n"
                "*Note: Partial read - analysis skipped.*\n\n")
        check("file_read: the partial block byte for byte", texts(r)[0] == want, texts(r))
        r = await c.call_tool("file_read", {"filename": "lines.txt", "start_line": 4990})
        check("file_read: over the budget, a note says where to continue",
              "(Lines 4990-5000)" in texts(r)[0] or "continue with start_line=" in texts(r)[0], texts(r)[0][:80])
        r = await c.call_tool("file_read", {"filename": "lines.txt"})
        check("file_read: a full read cut by the line budget says where to continue",
              "*Note: Truncated by the line limit (2000 lines per call); continue with start_line=2001.*" in texts(r)[0],
              texts(r)[0][-300:])
        r = await c.call_tool("file_read", {"filename": "longline.md"})
        t = texts(r)[0]
        check("file_read: a cut line is marked with where the rest starts",
              "\u2026 [line truncated: 1003 more bytes; read the rest with start_byte=4006]" in t, t[-300:])
        r = await c.call_tool("file_read", {"filename": "longline.md", "start_byte": 4006})
        check("file_read: start_byte reads the rest", "\u00e9END\nafter\n```" in texts(r)[0], texts(r))
        r = await c.call_tool("file_read", {"filename": "nope.rs"})
        check("file_read: errors are isError with the message",
              is_error(r) and texts(r)[0] == 'File not found: "nope.rs"', texts(r))
        r = await c.call_tool("file_read", {"filename": "lines.txt", "start_line": -2})
        check("file_read: a bad parameter is named",
              is_error(r) and texts(r)[0].startswith("Invalid start_line"), texts(r))

    # fs_read (bytes as JSON).
    async with await preset_client(server, root, "fs_read") as c:
        tool = (await c.list_tools()).tools[0]
        check("fs_read preset: the description says binary refused and boundaries kept",
              tool.name == "fs_read" and "Binary files are refused" in tool.description
              and "UTF-8 character boundaries are respected" in tool.description, tool.description)
        r = await c.call_tool("fs_read", {"path": "utf8.txt", "start_byte": 2, "end_byte": 7})
        v = json.loads(texts(r)[0])
        check("fs_read: structuredContent is the answer itself (the object the text holds)",
              structured(r) == v, structured(r))
        check("fs_read: snapped range, encoding, invalid sequences",
              v.get("content") == "\u00e9\u20ac\U0001f980" and v["metadata"]["encoding"] == "utf-8"
              and v["metadata"]["invalid_sequences"] == 0
              and v["metadata"]["actual_range"] == {"start": 1, "end": 10}, v)
        r = await c.call_tool("fs_read", {"path": "long.txt"})
        v = json.loads(texts(r)[0])
        check("fs_read: over the byte budget, truncated says where to continue",
              v["metadata"].get("truncated", {}).get("next_start_byte") == len(v["content"].encode()), v["metadata"])
        r = await c.call_tool("fs_read", {"path": "pixel.png"})
        check("fs_read: binary refused", is_error(r) and texts(r)[0] == BINARY_PNG, texts(r))
        r = await c.call_tool("fs_read", {"path": "lines.txt", "end_byte": "x"})
        check("fs_read: a bad parameter is named", is_error(r) and texts(r)[0].startswith("Invalid end_byte"),
              texts(r))

    # vault (tool read_file: N: line and one truncation line).
    async with await preset_client(server, root, "vault") as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        props = field(tools.get("read_file"), "input_schema", "inputSchema").get("properties", {})
        check("vault preset: read_file with path/start_line/end_line/start_byte",
              set(props) == {"path", "start_line", "end_line", "start_byte"}, sorted(props))
        r = await c.call_tool("read_file", {"path": "lines.txt", "start_line": 4999})
        check("vault: N: line", texts(r)[0] == "4999: line 4999\n5000: line 5000\n", texts(r))
        r = await c.call_tool("read_file", {"path": "lines.txt"})
        out = texts(r)[0].split("\n")
        check("vault: exactly one truncation line, nothing else",
              out[-1] == "" and out[-2] == "[... truncated, showing lines 1-2000 of 5000; continue with start_line=2001]"
              and len(out) == 2002 and all(l.startswith(f"{i + 1}: ") for i, l in enumerate(out[:2000])),
              out[-3:])
        r = await c.call_tool("read_file", {"path": "longline.md"})
        check("vault: a cut line is marked with where the rest starts",
              texts(r)[0].endswith("\u2026 [line truncated: 1003 more bytes; read the rest with start_byte=4006]\n3: after\n"),
              texts(r)[0][-200:])
        r = await c.call_tool("read_file", {"path": "longline.md", "start_byte": 4006})
        check("vault: start_byte reads the rest", texts(r)[0].endswith("\u00e9END\n3: after\n"), texts(r))
        r = await c.call_tool("read_file", {"path": "server.pem"})
        check("vault: errors are Error: MESSAGE",
              is_error(r) and texts(r)[0] == 'Error: Access denied: "server.pem" is a protected path', texts(r))


async def peer_presets(server, root):
    """Two peers' presets: mcp-filesystem over two allowed directories, gemini."""
    second = os.path.join(os.path.dirname(root), "second")
    os.makedirs(second, exist_ok=True)
    with open(os.path.join(second, "crlf.txt"), "wb") as f:
        f.write(b"a\r\nb\r\nc\r\n")
    async with await preset_client(server, root, "mcp-filesystem", ["--root", second]) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        check("mcp-filesystem preset: read_text_file, the deprecated read_file and read_media_file",
              list(tools) == ["read_text_file", "read_file", "read_media_file"], list(tools))
        schema = field(tools["read_text_file"], "input_schema", "inputSchema")
        check("mcp-filesystem: the published schema (head/tail numbers, unknown keys let through)",
              schema.get("properties", {}).get("head") == {
                  "type": "number", "description": "If provided, returns only the first N lines of the file"}
              and "additionalProperties" not in schema and schema.get("required") == ["path"], schema)
        r = await c.call_tool("read_text_file", {"path": "lines.txt", "head": 2})
        check("mcp-filesystem: head, and the text as structured content {content}",
              texts(r) == ["line 1\nline 2"] and structured(r) == {"content": "line 1\nline 2"},
              (texts(r), structured(r)))
        r = await c.call_tool("read_media_file", {"path": "pixel.png"})
        images = [x for x in r.content if getattr(x, "type", "") == "image"]
        check("mcp-filesystem: read_media_file sends an image as image content, nothing else",
              not is_error(r) and len(r.content) == 1 and len(images) == 1
              and field(images[0], "mime_type", "mimeType") == "image/png"
              and base64.b64decode(images[0].data) == PNG, r.content)
        r = await c.call_tool("read_media_file", {"path": os.path.join(second, "crlf.txt")})
        blobs = [getattr(x, "resource", None) for x in r.content if getattr(x, "type", "") == "resource"]
        check("mcp-filesystem: read_media_file sends any other file as an octet-stream resource",
              not is_error(r) and len(blobs) == 1
              and field(blobs[0], "mime_type", "mimeType") == "application/octet-stream"
              and base64.b64decode(blobs[0].blob) == b"a\r\nb\r\nc\r\n", r.content)
        r = await c.call_tool("read_text_file", {"path": os.path.join(second, "crlf.txt"), "tail": 2})
        # The server splits the CRLF-normalized text on "\n": the empty line after the final
        # line feed is one of the two (server-filesystem 2026.8.31).
        check("mcp-filesystem: the second allowed directory; tail normalizes CRLF",
              texts(r) == ["c\n"], texts(r))
        r = await c.call_tool("read_file", {"path": os.path.join(root, "..", "outside.txt")})
        check("mcp-filesystem: outside the allowed directories",
              is_error(r) and texts(r)[0].startswith("Access denied - path outside allowed directories: "),
              texts(r))
        r = await c.call_tool("read_text_file", {"path": "sub/escape"})
        check("mcp-filesystem: a link out of them",
              is_error(r) and texts(r)[0].startswith("Access denied - symlink target outside allowed directories"),
              texts(r))
    async with await preset_client(server, root, "gemini") as c:
        tools = [t.name for t in (await c.list_tools()).tools]
        check("gemini preset: read_file", tools == ["read_file"], tools)
        r = await c.call_tool("read_file", {"file_path": "lines.txt", "start_line": 4999})
        t = texts(r)[0]
        # Gemini CLI 0.61.0 splits on "\n": 5,000 lines and a final newline are 5,001.
        check("gemini: the truncation header, then the lines unnumbered",
              t.startswith("\nIMPORTANT: The file content has been truncated.\n"
                           "Status: Showing lines 4999-5001 of 5001 total lines.\n")
              and t.endswith("--- FILE CONTENT (truncated) ---\nline 4999\nline 5000\n"), t[-200:])
        with open(os.path.join(second, "blob.tmp"), "wb") as f:
            f.write(b"He\x00llo\x00\x00\x00")
        r = await c.call_tool("read_file", {"file_path": os.path.join(second, "blob.tmp")})
        check("gemini: outside the workspace", is_error(r) and texts(r)[0].startswith("Path not in workspace"),
              texts(r))
        with open(os.path.join(root, "sub", "blob.tmp"), "wb") as f:
            f.write(b"He\x00llo\x00\x00\x00")
        r = await c.call_tool("read_file", {"file_path": "sub/blob.tmp"})
        check("gemini: a binary file is a success that says so",
              not is_error(r) and texts(r) == ["Cannot display content of binary file: sub/blob.tmp"], texts(r))
        r = await c.call_tool("read_file", {"file_path": "lines.txt", "start_line": 0})
        check("gemini: ajv's words for a bad line", is_error(r) and texts(r) == ["params/start_line must be >= 1"],
              texts(r))


async def session(server, root, lines, long_line):
    params = StdioServerParameters(command=server, args=[
        "--root", root, "--protect", "*.pem",
        "--sessions-store", "claude", "--sessions-dir", CLAUDE_PROJECTS, "--all-projects",
    ])
    async with Client(params, read_timeout_seconds=60) as client:
        # tools/list: the unified parameters as a JSON Schema.
        listed = await client.list_tools()
        tools = {t.name: t for t in listed.tools}
        check("tools/list has read_file and read_session_messages",
              list(tools) == ["read_file", "read_session_messages"], list(tools))
        schema = field(tools["read_file"], "input_schema", "inputSchema")
        props = schema.get("properties", {})
        expected = {"path", "start_line", "end_line", "offset", "limit", "head", "tail",
                    "start_byte", "end_byte", "should_read_entire_file", "explanation",
                    "pages", "cells", "crop"}
        check("schema lists the parameters", set(props) == expected, sorted(props))
        check("schema requires path", schema.get("required") == ["path"], schema.get("required"))
        check("schema refuses unknown parameters", schema.get("additionalProperties") is False,
              schema.get("additionalProperties"))
        check("schema: start_byte is a non-negative integer",
              "integer" in str(props["start_byte"].get("type")) and props["start_byte"].get("minimum") == 0,
              props["start_byte"])

        async def call(args):
            return await client.call_tool("read_file", args)

        # Lines, in three dialects.
        want = "line 10\nline 11\nline 12\n"
        for dialect, args in [
            ("path/start_line/end_line", {"path": "lines.txt", "start_line": 10, "end_line": 12}),
            ("Cursor", {"target_file": "lines.txt", "start_line_one_indexed": 10,
                        "end_line_one_indexed_inclusive": 12, "should_read_entire_file": False,
                        "explanation": "testing"}),
            ("Claude Code", {"file_path": "lines.txt", "offset": 10, "limit": 3}),
        ]:
            r = await call(args)
            check(f"lines ({dialect})", not field(r, "is_error", "isError") and texts(r)[0] == want,
                  texts(r))
            meta = field(r, "structured_content", "structuredContent") or {}
            check(f"lines ({dialect}): structured range", meta.get("lines") == {"start": 10, "end": 12},
                  meta.get("lines"))
        meta = field(r, "structured_content", "structuredContent") or {}
        check("structuredContent does not show the host path of the root",
              root not in json.dumps(meta) and meta.get("resolved_path") == "lines.txt", meta.get("resolved_path"))
        check("structuredContent: only what a host needs, no null or default field",
              {"resolved_path", "file_size", "encoding", "line_ending", "lines", "bytes", "is_partial",
               "fingerprint"} <= set(meta) <= {"resolved_path", "file_size", "encoding", "line_ending",
                                                "lines", "bytes", "is_partial", "fingerprint", "total_lines"}
              and set(meta["fingerprint"]) == {"modified_ns", "content_hash"}, meta)
        r = await call({"path": "lines.txt", "head": 3})
        meta = field(r, "structured_content", "structuredContent") or {}
        notes = texts(r)[1] if len(texts(r)) > 1 else ""
        check("head: what was omitted is in the notes only, not repeated in structuredContent",
              notes.startswith("[Lines 4-5000 omitted") and "omitted" not in meta and "content" not in meta
              and meta.get("bytes", {}).get("start") == 0, (notes, meta))
        r = await call({"path": "lines.txt", "start_line": -3})
        check("negative start_line counts from the end",
              texts(r)[0] == "line 4998\nline 4999\nline 5000\n", texts(r))

        # head and tail: exactly N lines.
        r = await call({"path": "lines.txt", "tail": 250})
        body = texts(r)[0]
        check("tail 250 returns exactly 250 lines",
              body.count("\n") == 250 and body.startswith("line 4751\n") and body.endswith("line 5000\n"),
              body[:40])
        r = await call({"path": "lines.txt", "head": 250})
        body = texts(r)[0]
        check("head 250 returns exactly 250 lines",
              body.count("\n") == 250 and body.endswith("line 250\n"), body[-40:])

        # Bytes: snapped outward to whole characters.
        r = await call({"path": "utf8.txt", "start_byte": 2, "end_byte": 7})
        meta = field(r, "structured_content", "structuredContent") or {}
        check("bytes snap to whole characters", texts(r)[0] == "\u00e9\u20ac\U0001f980",
              texts(r))
        check("bytes report requested and actual ranges",
              meta.get("bytes") == {"start": 1, "end": 10}
              and meta.get("requested", {}).get("bytes") == {"start": 2, "end": 7},
              meta)

        # Paging past the budget (2000 lines, 100 KiB) to the end.
        r = await call({"path": "lines.txt"})
        notes = texts(r)[1] if len(texts(r)) > 1 else ""
        check("a read over the line budget is cut, not refused",
              not field(r, "is_error", "isError") and texts(r)[0].count("\n") == 2000, texts(r)[0][-30:])
        check("the note says where to continue", "continue with start_line=2001" in notes, notes)
        text, pages = await page_through(client, "lines.txt", "lines")
        check("paging by lines yields the file exactly once", text == lines and pages == 3,
              (len(text), pages))
        r = await call({"path": "long.txt"})
        meta = field(r, "structured_content", "structuredContent") or {}
        cut = (meta.get("cut_lines") or [{}])[0]
        notes = texts(r)[1] if len(texts(r)) > 1 else ""
        check("a line over 2000 characters is cut and says where the rest starts",
              len(texts(r)[0]) == 2001 and cut.get("line") == 1
              and f"read the rest with start_byte={cut.get('next_start_byte')}" in notes,
              (len(texts(r)[0]), cut, notes))
        text, pages = await page_through(client, "long.txt", "bytes")
        check("paging a 300 KiB line by bytes yields it exactly once",
              text == long_line and pages >= 3, (len(text), pages))

        # Failures: tool results with isError, never protocol errors or a crash; the message
        # once, in the text, and its kind for the host.
        r = await call({"path": "pixel.png"})
        images = [c for c in r.content if getattr(c, "type", "") == "image"]
        check("an image comes back as image content with its size line",
              not field(r, "is_error", "isError") and len(images) == 1
              and field(images[0], "mime_type", "mimeType") == "image/png"
              and base64.b64decode(images[0].data) == PNG
              and any(t.startswith("[Image: original 1x1, sent 1x1 image/png") for t in texts(r))
              and (field(r, "structured_content", "structuredContent") or {}).get("kind") == "image",
              (r.content, field(r, "structured_content", "structuredContent")))
        r = await call({"path": "archive.zip"})
        check("a refused binary file: kind binary, the message not repeated",
              field(r, "structured_content", "structuredContent") == {"kind": "binary"},
              field(r, "structured_content", "structuredContent"))
        errors = [
            ("binary file", {"path": "archive.zip"}, BINARY_ZIP),
            ("absolute path outside the root", {"path": "/etc/passwd"},
             'Path "/etc/passwd" is outside the workspace'),
            ("relative path outside the root", {"path": "../outside.txt"},
             'Path "../outside.txt" is outside the workspace'),
            ("symlink leaving the root", {"path": "sub/escape"},
             'Path "sub/escape" is outside the workspace'),
            ("protected path", {"path": "server.pem"},
             'Access denied: "server.pem" is a protected path'),
            ("missing file", {"path": "nope.txt"}, 'File not found: "nope.txt"'),
            ("negative start_byte", {"path": "lines.txt", "start_byte": -5},
             "Invalid start_byte: expected a non-negative integer, got -5"),
            ("negative head", {"path": "lines.txt", "head": -1},
             "Invalid head: expected a non-negative integer, got -1"),
            ("fractional limit", {"path": "lines.txt", "limit": 2.5},
             "Invalid limit: expected a non-negative integer, got 2.5"),
            ("string start_line", {"path": "lines.txt", "start_line": "ten"},
             "Invalid start_line: expected an integer line number"),
            ("path of the wrong type", {"path": 42}, "Invalid path: expected a string, got 42"),
            ("boolean of the wrong type", {"path": "lines.txt", "should_read_entire_file": 3},
             "Invalid should_read_entire_file"),
            ("head with tail", {"path": "lines.txt", "head": 5, "tail": 5},
             "Conflicting parameters: head and tail cannot be used together"),
            ("lines with bytes", {"path": "lines.txt", "start_line": 1, "end_byte": 9},
             "Conflicting parameters: start_line and end_byte cannot be used together"),
            ("line 0", {"path": "lines.txt", "start_line": 0},
             "start_line (0) is invalid: lines are 1-indexed"),
            ("start after end", {"path": "lines.txt", "start_line": 9, "end_line": 3},
             "Invalid range specified: start_line (9) is greater than end_line (3)."),
            ("start beyond the end", {"path": "lines.txt", "start_line": 9999},
             "Invalid range specified: start_line (9999) is beyond the end of the file (5000 lines)."),
            ("unknown parameter", {"path": "lines.txt", "lines": "1:5"},
             'Unknown parameter "lines"'),
            ("missing path", {"start_line": 1}, "Missing required parameter path"),
        ]
        for name, args, message in errors:
            try:
                r = await call(args)
            except Exception as e:  # a protocol error instead of a tool result
                check(f"error as a tool result: {name}", False, repr(e))
                continue
            got = texts(r)[0] if r.content else ""
            meta = field(r, "structured_content", "structuredContent") or {}
            check(f"error as a tool result: {name}",
                  field(r, "is_error", "isError") is True and got.startswith(message)
                  and meta.get("kind") and "error" not in meta, (got, meta))
        try:
            r = await client.call_tool("no_such_tool", {"path": "lines.txt"})
            unknown_ok = field(r, "is_error", "isError") is True
            detail = texts(r)
        except Exception as e:  # noqa: BLE001 - a JSON-RPC error is also a clean refusal
            unknown_ok, detail = "no_such_tool" in str(e) or "not found" in str(e).lower(), repr(e)
        check("unknown tool is refused cleanly", unknown_ok, detail)

        await sessions_checks(client, tools)

        # Still serving after all of that.
        r = await call({"path": "lines.txt", "start_line": 4999})
        check("a good call after the bad ones",
              not field(r, "is_error", "isError") and texts(r)[0] == "line 4999\nline 5000\n", texts(r))


async def sessions_checks(client, tools):
    """read_session_messages on the Claude Code fixtures."""
    schema = field(tools["read_session_messages"], "input_schema", "inputSchema")
    props = schema.get("properties", {})
    check("sessions schema lists the camelCase parameters",
          set(props) == {"sessionId", "searchTitle", "limit", "offset", "order"}, sorted(props))
    check("sessions schema: limit is a non-negative integer",
          props["limit"].get("type") == "integer" and props["limit"].get("minimum") == 0,
          props["limit"])
    check("sessions schema: order is oldest or newest",
          props["order"].get("enum") == ["oldest", "newest"], props["order"])
    check("sessions schema refuses unknown parameters",
          schema.get("additionalProperties") is False, schema.get("additionalProperties"))

    async def call(args):
        return await client.call_tool("read_session_messages", args)

    def body(r):
        if field(r, "is_error", "isError"):
            raise AssertionError(f"unexpected error: {texts(r)}")
        return json.loads(texts(r)[0])

    r = await call({"searchTitle": "RELEASE notes"})
    got = body(r)
    check("title search finds the session, camelCase keys",
          got.get("sessionId") == C3 and got.get("sessionTitle") == "Write the release notes for 0.3"
          and set(got) == {"sessionId", "sessionTitle", "messageCount", "messages"}, got)
    check("title search: messageCount and messages",
          got.get("messageCount") == 3 and len(got.get("messages", [])) == 3
          and got["messages"][2] == {"role": "assistant", "content": "Here is a draft of the notes.",
                                     "timestamp": "2025-06-03T08:01:30.000Z"}, got.get("messages"))

    r = await call({"sessionId": C1, "limit": 2})
    got = body(r)
    check("id lookup with limit: 2 of 9 messages, oldest first",
          got.get("sessionId") == C1 and got.get("sessionTitle") == "Fix the parser"
          and got.get("messageCount") == 9 and len(got.get("messages", [])) == 2
          and got["messages"][1]["content"] == "The parser crashes on empty input. Can you fix it?",
          got)
    r = await call({"sessionId": C1, "limit": 1, "offset": 1, "order": "newest"})
    got = body(r)
    check("id lookup, order newest with offset",
          [m["content"] for m in got.get("messages", [])] == ["Added `parses_empty_input`.\n[tool: Bash]"],
          got.get("messages"))

    errors = [
        ("neither id nor title", {"limit": 5}, "Either sessionId or searchTitle must be provided", True),
        ("unknown id", {"sessionId": "no-such-id"}, 'Session not found: "no-such-id"', True),
        ("no title match", {"searchTitle": "zzz-nothing"},
         'No sessions found matching "zzz-nothing". Available sessions: ', False),
        ("bad order", {"sessionId": C1, "order": "sideways"},
         'Invalid order: expected "oldest" or "newest", got "sideways"', True),
        ("negative limit", {"sessionId": C1, "limit": -1},
         "Invalid limit: expected a non-negative integer, got -1", True),
        ("string sessionId", {"sessionId": 42}, "Invalid parameters: ", False),
        ("unknown parameter", {"sessionId": C1, "bogus": 1}, "Invalid parameters: unknown field", False),
    ]
    for name, args, message, exact in errors:
        try:
            r = await call(args)
        except Exception as e:  # a protocol error instead of a tool result
            check(f"sessions error as a tool result: {name}", False, repr(e))
            continue
        got = texts(r)[0] if r.content else ""
        ok = got == message if exact else got.startswith(message)
        meta = field(r, "structured_content", "structuredContent") or {}
        check(f"sessions error as a tool result: {name}",
              field(r, "is_error", "isError") is True and ok and meta.get("kind") and "error" not in meta,
              (got, meta))


async def session_scoped_to_root(server, root):
    """Without --all-projects, read_session_messages sees only the sessions of the project
    under --root: the fixture's projects (/work/app, /work/docs) are not listed."""
    params = StdioServerParameters(command=server, args=[
        "--root", root, "--sessions-store", "claude", "--sessions-dir", CLAUDE_PROJECTS,
    ])
    async with Client(params, read_timeout_seconds=60) as client:
        r = await client.call_tool("read_session_messages", {"searchTitle": "parser"})
        got = texts(r)[0] if r.content else ""
        check("sessions scoped to --root: other projects' sessions are not found nor listed",
              field(r, "is_error", "isError") is True
              and got == 'No sessions found matching "parser". Available sessions: (none)'
              or (got.startswith('No sessions found matching "parser"') and "Fix the parser" not in got),
              got)


async def session_without_store(server, root):
    """Without --sessions-store the tool is not listed, and a call says why."""
    params = StdioServerParameters(command=server, args=["--root", root])
    async with Client(params, read_timeout_seconds=60) as client:
        listed = await client.list_tools()
        names = [t.name for t in listed.tools]
        check("without a store only read_file is listed", names == ["read_file"], names)
        try:
            r = await client.call_tool("read_session_messages", {"sessionId": C1})
            ok = field(r, "is_error", "isError") is True and "no session store is configured" in texts(r)[0]
            detail = texts(r)
        except Exception as e:  # noqa: BLE001
            ok, detail = False, repr(e)
        check("without a store a call is an isError saying so", ok, detail)
        r = await client.call_tool("read_file", {"path": "lines.txt", "head": 1})
        check("without a store read_file still works",
              not field(r, "is_error", "isError") and texts(r)[0] == "line 1\n", texts(r))


def main():
    server = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        root, lines, long_line = make_fixtures(tmp)
        try:
            anyio.run(run, server, root, lines, long_line)
        except BaseException:  # noqa: BLE001 - report, then count as a failure
            traceback.print_exc()
            check("the session ran to the end", False, "exception above")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
