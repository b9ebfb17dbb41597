"""The calls of the differential suite: every parameter shape each agent's read tool takes,
with the argument types models send, for every file of the corpus.

`calls(agent, manifest, root)` gives `[{"id", "file", "group", "tool", "args"}]`: `tool`
is the tool's name where the agent serves several, `args` the call's arguments with the
file's absolute path in. Shapes that name lines are taken relative to the file: the
first line, the middle (`mid`), the last (`last`) and past the end (`past`).
"""

import json
import os

# The argument types and shapes beyond the plain ones (a number as a string, a float, a
# fraction, a boolean, null, a one-element array, an alias): a shape whose name has one of
# these. They are tried on TYPE_FILES, one file of each kind (or on the entries a
# manifest marks `"types": true`, as outside_corpus.py does); how an agent reads its
# arguments does not depend on the other files' content, and every call of Claude Code
# costs a model turn.
TYPE_MARKS = (
    "=str", "=float", "=frac", "=bool", "=null", '["2"', "[1.0", "[1.5", "[true", '"1,5"',
    "=[2]", "[2]", "[]", "[1,2,3]", "length=", "description", "str,", ",str", "null",
)
TYPE_FILES = {
    "plain.txt", "crlf.txt", "utf16le_bom.txt", "latin1.txt", "ctrl_nul_start.txt", "empty.txt",
    "lines3000.txt", "image.png", "doc.pdf", "dir", "missing.txt",
}


def is_type_shape(shape):
    return any(m in shape for m in TYPE_MARKS)

# The argument types models send for a number: a string, a float, a fraction, a
# boolean, null.
ODD = [("str", "2"), ("float", 2.0), ("frac", 1.5), ("bool", True), ("null", None)]


def _marks(lines):
    last = max(lines, 1)
    return {"first": 1, "mid": max(last // 2, 1), "last": last, "past": last + 10}


def claude_code(p, m):
    out = [("whole", {"file_path": p})]
    for k in ("first", "mid", "last", "past"):
        out.append((f"offset={k}", {"file_path": p, "offset": m[k]}))
    out += [("offset=0", {"file_path": p, "offset": 0}), ("offset=-3", {"file_path": p, "offset": -3})]
    out += [(f"offset={n}", {"file_path": p, "offset": v}) for n, v in ODD]
    out += [("limit=5", {"file_path": p, "limit": 5}), ("limit=0", {"file_path": p, "limit": 0})]
    out += [("limit=-1", {"file_path": p, "limit": -1})]
    out += [(f"limit={n}", {"file_path": p, "limit": v}) for n, v in ODD]
    out += [
        ("offset=mid,limit=5", {"file_path": p, "offset": m["mid"], "limit": 5}),
        ("offset=last,limit=100", {"file_path": p, "offset": m["last"], "limit": 100}),
        ("offset=past,limit=5", {"file_path": p, "offset": m["past"], "limit": 5}),
        ("pages=1", {"file_path": p, "pages": "1"}),
        ("pages=empty", {"file_path": p, "pages": ""}),
        ("length=5", {"file_path": p, "length": 5}),
        ("description", {"file_path": p, "description": "read it"}),
        ("offset=[2]", {"file_path": p, "offset": [2]}),
    ]
    return [(None, n, a) for n, a in out]


def gemini(p, m):
    out = [("whole", {"file_path": p})]
    for k in ("first", "mid", "last", "past"):
        out.append((f"start={k}", {"file_path": p, "start_line": m[k]}))
    out += [("start=0", {"file_path": p, "start_line": 0}), ("start=-1", {"file_path": p, "start_line": -1})]
    out += [(f"start={n}", {"file_path": p, "start_line": v}) for n, v in ODD]
    out += [
        ("end=5", {"file_path": p, "end_line": 5}),
        ("end=past", {"file_path": p, "end_line": m["past"]}),
        ("end=0", {"file_path": p, "end_line": 0}),
        ("end=str", {"file_path": p, "end_line": "3"}),
        ("start=2,end=5", {"file_path": p, "start_line": 2, "end_line": 5}),
        ("start=mid,end=last", {"file_path": p, "start_line": m["mid"], "end_line": m["last"]}),
        ("start=5,end=2", {"file_path": p, "start_line": 5, "end_line": 2}),
        ("start=past,end=past+5", {"file_path": p, "start_line": m["past"], "end_line": m["past"] + 5}),
    ]
    return [(None, n, a) for n, a in out]


def openhands(p, m):
    def v(r):
        return {"command": "view", "path": p, "view_range": r}

    out = [("whole", {"command": "view", "path": p})]
    out += [
        ("[1,5]", v([1, 5])),
        ("[mid,-1]", v([m["mid"], -1])),
        ("[last,last]", v([m["last"], m["last"]])),
        ("[past,past+5]", v([m["past"], m["past"] + 5])),
        ("[1,past]", v([1, m["past"]])),
        ("[0,5]", v([0, 5])),
        ("[-1,5]", v([-1, 5])),
        ("[5,2]", v([5, 2])),
        ('["2","4"]', v(["2", "4"])),
        ("[1.0,3.0]", v([1.0, 3.0])),
        ("[1.5,3]", v([1.5, 3])),
        ("[true,3]", v([True, 3])),
        ("[2]", v([2])),
        ("[]", v([])),
        ("[1,2,3]", v([1, 2, 3])),
        ('"1,5"', v("1,5")),
        ("null", v(None)),
    ]
    return [(None, n, a) for n, a in out]


def mcp_filesystem(p, m):
    out = [("read_text_file", "whole", {"path": p})]
    for key in ("head", "tail"):
        for n, val in [("5", 5), ("0", 0), ("-1", -1), ("past", m["past"])] + ODD[:2] + [("frac", 2.5)] + ODD[3:]:
            out.append(("read_text_file", f"{key}={n}", {"path": p, key: val}))
    out.append(("read_text_file", "head=2,tail=2", {"path": p, "head": 2, "tail": 2}))
    out.append(("read_media_file", "media", {"path": p}))
    out.append(("read_file", "read_file", {"path": p}))
    return out


def rust_mcp_filesystem(p, m):
    out = [("read_text_file", "whole", {"path": p})]
    for n, val in (("true", True), ("false", False), ("str", "true"), ("null", None)):
        out.append(("read_text_file", f"numbers={n}", {"path": p, "with_line_numbers": val}))
    for tool in ("head_file", "tail_file"):
        for n, val in (("5", 5), ("0", 0), ("-1", -1), ("past", m["past"]), ("str", "3"), ("float", 2.0)):
            out.append((tool, f"lines={n}", {"path": p, "lines": val}))
    for n, off, lim in (
        ("0,5", 0, 5),
        ("mid,5", m["mid"] - 1, 5),
        ("last,null", m["last"] - 1, None),
        ("past,5", m["past"], 5),
        ("2,0", 2, 0),
        ("-1,5", -1, 5),
        ("str,5", "2", 5),
        ("2,str", 2, "3"),
    ):
        args = {"path": p, "offset": off}
        if lim is not None or n.endswith("null"):
            args["limit"] = lim
        out.append(("read_file_lines", f"offset,limit={n}", args))
    return out


SHAPES = {
    "claude-code": claude_code,
    "gemini": gemini,
    "openhands": openhands,
    "openhands-tools": openhands,
    "mcp-filesystem": mcp_filesystem,
    "rust-mcp-filesystem": rust_mcp_filesystem,
}


def calls(agent, manifest, root):
    out = []
    for entry in manifest:
        path = os.path.join(root, entry["name"])
        for tool, shape, args in SHAPES[agent](path, _marks(entry["lines"])):
            if is_type_shape(shape) and not entry.get("types", entry["name"] in TYPE_FILES):
                continue
            out.append(
                {
                    "id": f"{entry['name']} {tool + ' ' if tool else ''}{shape}",
                    "file": entry["name"],
                    "group": entry["group"],
                    "tool": tool,
                    "args": args,
                }
            )
    return out


if __name__ == "__main__":
    import sys

    corpus = sys.argv[1]
    man = json.load(open(os.path.join(corpus, "manifest.json")))
    for a in SHAPES:
        print(a, len(calls(a, man, os.path.join(corpus, "root"))))
