"""The peers' own test cases (tests/peers/*.json at the repository's root) driven from
Python: the same case setup as the Rust harness (tests/peers.rs), the tool built through
the binding. The JSON is the shared truth; this file only drives it."""

from __future__ import annotations

import base64
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import rangeread as rr

REPO = Path(__file__).resolve().parents[3]
PEERS_DIR = REPO / "tests" / "peers"


def peer_names() -> List[str]:
    return sorted(p.stem for p in PEERS_DIR.glob("*.json"))


def peer_file(peer: str) -> Dict[str, Any]:
    with open(PEERS_DIR / f"{peer}.json", encoding="utf-8") as f:
        return json.load(f)


def materialize(root: Path, files: List[Dict[str, Any]]) -> None:
    for f in files:
        p = root / f["path"]
        p.parent.mkdir(parents=True, exist_ok=True)
        if f.get("dir"):
            p.mkdir(parents=True, exist_ok=True)
            continue
        if "symlink" in f:
            os.symlink(f["symlink"].replace("{root}", str(root)), p)
            continue
        if "text" in f:
            data = f["text"].encode("utf-8")
        elif "base64" in f:
            data = base64.b64decode(f["base64"])
        elif "repeat" in f:
            data = (f["repeat"]["text"] * f["repeat"]["times"]).encode("utf-8")
        elif "lines" in f:
            l = f["lines"]
            data = "".join(f"{l['prefix']}{i}\n" for i in range(1, l["count"] + 1)).encode("utf-8")
        else:
            data = b""
        p.write_bytes(data)


def with_root(v: Any, root: str) -> Any:
    if isinstance(v, str):
        return v.replace("{root}", root)
    if isinstance(v, list):
        return [with_root(x, root) for x in v]
    if isinstance(v, dict):
        return {k: with_root(x, root) for k, x in v.items()}
    return v


def fold(p: str) -> Path:
    """`.` dropped and `..` folded by the spelling alone, as Node's `path.resolve`."""
    out: List[str] = []
    for part in p.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if out:
                out.pop()
            continue
        out.append(part)
    return Path("/" + "/".join(out))


@dataclass
class Setup:
    root: Path
    protect: List[str] = field(default_factory=list)
    dialect: List[Tuple[str, Any]] = field(default_factory=list)
    own: List[str] = field(default_factory=list)
    more_roots: List[Tuple[Path, List[str]]] = field(default_factory=list)
    labels: Dict[str, str] = field(default_factory=dict)
    max_bytes: Optional[int] = None

    def tool(self, dialect: Dict[str, Any]) -> rr.DialectTool:
        def ws(d: Path, own: List[str]) -> rr.Workspace:
            return rr.Workspace(d, protect=self.protect + own)

        if not self.more_roots and not self.own and not self.labels:
            return rr.DialectTool(dialect, workspace=ws(self.root, []))
        roots = [ws(self.root, self.own)] + [ws(d, own) for d, own in self.more_roots]
        return rr.DialectTool(dialect, roots=roots, labels=self.labels)


def zed_setup(config: Dict[str, Any], root: Path) -> Setup:
    s = Setup(root=root)

    def label(patterns: List[str], scope: str, setting: str) -> List[str]:
        for p in patterns:
            # As the Rust harness: a later pattern's label wins.
            s.labels[p] = f"{scope} `{setting}`"
        return list(patterns)

    glob = label(config.get("private_files", []), "global", "private_files")
    glob += label(config.get("file_scan_exclusions", []), "global", "file_scan_exclusions")
    roots: List[Tuple[Path, List[str]]] = []
    for w in config.get("worktrees", []):
        wss = config.get("worktree_settings", {}).get(w)
        own: List[str] = []
        if wss is not None:
            own = label(wss.get("private_files", []), "worktree", "private_files")
            own += label(wss.get("file_scan_exclusions", []), "worktree", "file_scan_exclusions")
        roots.append((root / w, own))
    skills = config.get("global_skills_dir")
    if isinstance(skills, str):
        d = Path(skills.replace("{root}", str(root)))
        d.mkdir(parents=True, exist_ok=True)
        roots.append((d, []))
    if not roots:
        raise ValueError("zed: no worktrees")
    s.root, s.own = roots[0]
    s.more_roots = roots[1:]
    s.protect = glob
    return s


def setup(peer: str, case: Dict[str, Any], root: Path) -> Setup:
    config = case.get("config", {})
    if peer == "zed":
        return zed_setup(config, root)
    s = Setup(root=root)
    for k, v in config.items():
        v = with_root(v, str(root))
        if (peer, k) == ("rust-mcp-filesystem", "allowed_directories"):
            if len(v) != 1:
                raise ValueError(f"allowed_directories {v}: one directory only")
            s.root = root / v[0]
        elif (peer, k) == ("mcp-filesystem", "allowedDirectories"):
            dirs = [fold(d) for d in v]
            for d in dirs:
                if str(d).startswith(str(root)):
                    d.mkdir(parents=True, exist_ok=True)
            if not dirs:
                raise ValueError("allowedDirectories: none given")
            s.root = dirs[0]
            s.more_roots = [(d, []) for d in dirs[1:]]
        elif (peer, k) == ("gemini", "project_temp_dir"):
            d = fold(v)
            if not str(d).startswith(str(root)):
                s.more_roots.append((d, []))
        elif (peer, k) == ("forge", "max_read_lines"):
            s.dialect.append(("/limits/max_lines", max(int(v), 1)))
        elif (peer, k) == ("forge", "max_line_chars"):
            s.dialect.append(("/limits/max_line_chars", v))
            s.dialect.append(("/output/line_max_bytes", v))
        elif (peer, k) in (("forge", "max_file_size_bytes"), ("forge", "max_image_size_bytes")):
            n = max(config.get("max_file_size_bytes", 0), config.get("max_image_size_bytes", 0))
            s.dialect.append(("/caps/file_size_any_read/bytes", n))
        elif (peer, k) == ("forge", "model_input_modalities"):
            modalities = v if isinstance(v, list) else ["unknown"]
            if "image" not in modalities:
                ext = [".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".svg", ".pdf"]
                message = (
                    "Tool 'read' requires image modality, but model only supports: "
                    + ", ".join(modalities)
                )
                s.dialect.append(
                    (
                        "/paths/refused_extensions",
                        [{"names": ext, "message": message, "match_suffix": True}],
                    )
                )
        elif (peer, k) == ("openhands", "workspace_root"):
            if v is None:
                s.dialect.append(("/paths/suggest_absolute", None))
            else:
                s.root = Path(v)
        elif (peer, k) == ("gemini", "respectGeminiIgnore") and v is False:
            # Gemini CLI's respectGeminiIgnore: false stops reading .geminiignore (its
            # other rule sources stay).
            files = [f for f in rr.dialect("gemini")["rules"]["files"] if f["path"] != ".geminiignore"]
            s.dialect.append(("/rules/files", files))
        elif (peer, k) == ("crush", "maxContentSize"):
            s.max_bytes = v
        elif (peer, k) == ("crush", "supports_images") and v is True:
            pass
        elif (peer, k) == ("claude-code", "cwd") and Path(v) == root:
            pass
        elif (peer, k) == ("claude-code", "context_left"):
            if v == "ample":
                s.dialect.append(("/caps/lift/room_tokens", 200_000))
            elif v != "unknown":
                raise ValueError(f"context_left {v}: unknown or ample")
        else:
            raise ValueError(f"config {k} is not applied by the harness")
    return s


def dialect_for(peer: str, file_tool: Any, call: Dict[str, Any]) -> Dict[str, Any]:
    name = f"{peer}/{call['tool']}" if "tool" in call else peer
    try:
        return rr.dialect(name)
    except rr.InvalidParamsError:
        if not isinstance(file_tool, str):
            raise
        return rr.dialect(f"{peer}/{file_tool}")


def changed(dialect: Dict[str, Any], changes: List[Tuple[str, Any]]) -> Dict[str, Any]:
    for pointer, value in changes:
        keys = pointer.split("/")[1:]
        at = dialect
        for key in keys[:-1]:
            at = at.setdefault(key, {})
        at[keys[-1]] = value
    return dialect


def subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and subset(v, got[k]) for k, v in want.items())
    return bool(want == got)


def check(e: Dict[str, Any], text: str, is_error: bool, media: List[Tuple[str, str]]) -> List[str]:
    why = []
    if "media_type" in e and e["media_type"] is not None:
        first = media[0][0] if media else None
        if first != e["media_type"]:
            why.append(f"media type {e['media_type']} expected, got {first}")
    want = e.get("inline_data")
    if want is not None:
        if not any(
            ("mimeType" not in want or want["mimeType"] == m) and ("data" not in want or want["data"] == d)
            for m, d in media
        ):
            why.append(f"no media item {want}")
    if is_error != e["is_error"]:
        why.append(f"is_error {is_error}, expected {e['is_error']}")
    if e.get("text") is not None and text != e["text"]:
        why.append(f"text differs:\n  got:      {text!r}\n  expected: {e['text']!r}")
    if e.get("lines") is not None and text.split("\n") != e["lines"]:
        why.append(f"lines differ: got {text.split(chr(10))!r}")
    for c in e.get("contains", []):
        if c not in text:
            why.append(f"does not contain {c!r}: {text!r}")
    for c in e.get("not_contains", []):
        if c in text:
            why.append(f"contains {c!r}")
    if e.get("starts_with") is not None and not text.startswith(e["starts_with"]):
        why.append(f"does not start with {e['starts_with']!r}: {text!r}")
    if e.get("json_subset") is not None:
        try:
            ok = subset(e["json_subset"], json.loads(text))
        except ValueError:
            ok = False
        if not ok:
            why.append(f"JSON does not contain {e['json_subset']}: {text}")
    return why


def run_case(peer: str, file_tool: Any, case: Dict[str, Any]) -> List[str]:
    """Runs one case through the binding; returns why it failed (empty: passed)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        materialize(root, case.get("files", []))
        s = setup(peer, case, root)
        call = with_root(case["call"], str(root))
        dialect = changed(dialect_for(peer, file_tool, call), s.dialect)
        call.pop("tool", None)
        if s.max_bytes is not None:
            dialect["limits"]["max_bytes"] = s.max_bytes
        r = s.tool(dialect).respond(call)
        text = r.text if r.notes is None else f"{r.text}\n{r.notes}"
        media = [(m["mime_type"], m["data"]) for m in r.media]
        expect = case["expect"]
        if case.get("peer_ignored") and case.get("peer_answers"):
            expect = case["peer_answers"]
        return check(with_root(expect, str(root)), text, r.is_error, media)
