"""The Python API as a user meets it: results, errors as the builtins, tools, the GIL
released during reads, threads, a file truncated while read, memory over many calls."""

import json
import os
import threading
import time
from pathlib import Path

import pytest

import rangeread as rr
from conftest import GIB, LINE
from typed_sample import sample

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "tests/data/sample.txt"


def test_the_typed_sample_runs():
    out = sample(REPO)
    assert out[0].startswith("line 40:")


def test_readme_example():
    ws = rr.Workspace(REPO / "tests/data", protect=[".env*"])
    r = rr.Reader(max_lines=0).read_in(ws, "sample.txt", lines="40:+2")
    assert r.lines == {"start": 40, "end": 42}
    assert r.content == "".join(SAMPLE.read_text(encoding="utf-8").splitlines(True)[39:42])
    d = r.to_dict()
    assert d["content"] == r.content and d["total_lines"] == 60
    assert json.loads(json.dumps(d)) == d


def test_a_whole_read_is_the_files_text_and_its_fingerprint_tells_a_change(tmp_path):
    f = tmp_path / "whole.py"
    f.write_bytes(b"x = 1\n" * 700)
    reader = rr.Reader(max_lines=0, max_bytes=0)
    r = reader.read(f)
    assert r.content == open(f, encoding="utf-8").read()
    # The hash is made when the fingerprint is asked for (not by a read that only takes
    # the content): of the bytes returned, the same for an unchanged file.
    fp = r.fingerprint
    assert fp == reader.read(f).fingerprint == r.to_dict()["fingerprint"]
    assert len(fp["content_hash"]) == 16 and int(fp["content_hash"], 16) >= 0
    assert fp["file_size"] == 4200 and fp["modified_ns"] == os.stat(f).st_mtime_ns
    f.write_bytes(b"x = 2\n" * 700)
    assert reader.read(f).fingerprint["content_hash"] != fp["content_hash"]


def test_raw_bytes_are_the_files():
    r = rr.Reader().read(SAMPLE, bytes=(100, 200))
    assert r.raw_bytes == SAMPLE.read_bytes()[r.bytes["start"] : r.bytes["end"]]


def test_raw_bytes_of_a_cp1251_file_are_the_utf8_of_content(tmp_path):
    # docs/python.md: in any encoding but UTF-8, raw_bytes is content as UTF-8.
    text = "Съешь же ещё этих мягких французских булок, да выпей же чаю.\n" * 20
    f = tmp_path / "cp1251.txt"
    f.write_bytes(text.encode("cp1251"))
    r = rr.Reader().read(f)
    assert (r.encoding, r.content) == ("windows-1251", text)
    assert r.raw_bytes == text.encode("utf-8")
    assert r.raw_bytes != f.read_bytes()[r.bytes["start"] : r.bytes["end"]]


@pytest.mark.parametrize(
    "call, kind, builtin",
    [
        (lambda: rr.Reader().read(REPO / "no/such.txt"), "not_found", FileNotFoundError),
        (lambda: rr.Reader().read(REPO / "tests"), "is_directory", IsADirectoryError),
        (lambda: rr.Reader().read(SAMPLE, lines="9:3"), "start_after_end", ValueError),
        (lambda: rr.Reader().read(SAMPLE, lines=(0, 2)), "zero_line", ValueError),
        (lambda: rr.Reader().read(SAMPLE, head=1, tail=1), "invalid_params", ValueError),
        (lambda: rr.Reader(max_lines=-1), "invalid_params", ValueError),
        (lambda: rr.Reader(max_lnes=1), "invalid_params", ValueError),
        (lambda: rr.Reader().read("/dev/zero"), "not_regular_file", OSError),
        (
            lambda: rr.Reader().read_in(rr.Workspace(REPO / "tests"), "../Cargo.toml"),
            "outside_workspace",
            PermissionError,
        ),
        (
            lambda: rr.Reader().read_in(rr.Workspace(REPO / "tests", protect=["*.txt"]), "data/sample.txt"),
            "protected",
            PermissionError,
        ),
        (lambda: rr.Workspace(REPO / "tests", protect=["/etc/passwd"]), "invalid_pattern", ValueError),
        (lambda: rr.DialectTool("no-such-preset"), "invalid_params", ValueError),
    ],
)
def test_errors_are_the_builtins(call, kind, builtin):
    with pytest.raises(rr.Error) as info:
        call()
    e = info.value
    assert e.kind == kind
    assert isinstance(e, builtin), type(e).__mro__
    assert str(e) == e.message and e.message


def test_errors_name_the_option():
    with pytest.raises(rr.InvalidParamsError) as info:
        rr.Reader(max_lines="ten")
    assert info.value.parameter == "max_lines"
    assert str(info.value) == 'max_lines must be a non-negative integer, not "ten"'
    with pytest.raises(FileNotFoundError) as nf:
        rr.Reader().read(REPO / "missing.txt")
    assert nf.value.errno == 2


def test_outline_and_documents():
    o = rr.Reader().read(REPO / "tests/data/landmarks/sample.py", outline=True)
    assert isinstance(o, rr.Outline) and o.complete
    assert [l["line"] for l in o.landmarks][:3] == [7, 12, 16]
    assert o.render().startswith("7: class Animal:")
    nb = REPO / "tests/corpus/files"
    d = rr.Reader().read_document(SAMPLE, lines="1:1")
    assert isinstance(d, rr.DocumentResult) and d.kind == "text" and d.images == []
    assert nb.is_dir()


def test_image_document_carries_its_bytes(tmp_path):
    png = (REPO / "tests/corpus/files").glob("*.png")
    first = next(iter(sorted(png)), None)
    if first is None:
        pytest.fail("tests/corpus/files has no PNG")
    d = rr.Reader().read_document(first)
    assert d.kind == "image"
    (mime, data), = d.images
    assert mime == "image/png" and data == first.read_bytes()
    assert d.original["width"] > 0


def test_dialect_tool_definition_and_respond(tmp_path):
    (tmp_path / "x.rs").write_text("fn a() {}\nfn b() {}\nfn c() {}\n")
    ws = rr.Workspace(tmp_path)
    tool = rr.DialectTool("codex", workspace=ws)
    d = tool.definition()
    assert d["name"] == "read_file" and d["input_schema"]["type"] == "object"
    r = tool.respond({"file_path": str(tmp_path / "x.rs"), "offset": 2, "limit": 1})
    assert (r.is_error, r.text) == (False, "L2: fn b() {}")
    same = tool.respond(json.dumps({"file_path": str(tmp_path / "x.rs"), "offset": 2, "limit": 1}))
    assert same.to_dict() == r.to_dict()
    assert r.items == [{"type": "text", "text": "L2: fn b() {}"}]
    bad = tool.respond({"file_path": "relative.rs"})
    assert bad.is_error and "absolute" in bad.text


def test_a_changed_dialect(tmp_path):
    (tmp_path / "a.txt").write_text("".join(f"{i}\n" for i in range(1, 11)))
    d = rr.dialect("vault")
    d["limits"]["max_lines"] = 3
    tool = rr.DialectTool(d, workspace=rr.Workspace(tmp_path))
    r = tool.respond({"path": "a.txt"})
    assert r.text.splitlines()[:3] == ["1: 1", "2: 2", "3: 3"]
    assert "[... truncated, showing lines 1-3 of 10" in r.text
    with pytest.raises(rr.InvalidParamsError):
        rr.DialectTool({"name": 3})


def test_the_notes_are_in_the_items(tmp_path):
    (tmp_path / "big.txt").write_text("x\n" * 5000)
    r = rr.DialectTool("read_file", workspace=rr.Workspace(tmp_path)).respond({"path": "big.txt"})
    assert r.notes and r.items[-1] == {"type": "text", "text": r.notes}


def test_every_preset_has_a_definition():
    names = rr.presets()
    assert "claude-code" in names and "codex" in names and len(names) >= 15
    for n in names:
        d = rr.DialectTool(n).definition()
        assert d["name"] and d["description"] and d["input_schema"]["type"] == "object", n


def test_the_gil_is_released_during_a_deep_read(big_file):
    ticks = 0
    stop = threading.Event()

    def spin():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1

    t = threading.Thread(target=spin)
    reader = rr.Reader(cache_bytes=0)
    t.start()
    try:
        time.sleep(0.05)
        before = ticks
        started = time.perf_counter()
        deep = (GIB // LINE) * 9 // 10
        r = reader.read(big_file, lines=f"{deep}:+249")
        took = time.perf_counter() - started
        during = ticks - before
    finally:
        stop.set()
        t.join()
    assert r.lines == {"start": deep, "end": deep + 249}
    assert r.bytes["start"] == (deep - 1) * LINE
    # A thread that never got the GIL back would tick 0 times; a pure-Python loop ticks
    # millions of times a second.
    assert during > 1000, f"the spinning thread ticked {during} times in {took:.3f} s"


def test_eight_threads_read_one_big_file(big_file):
    reader = rr.Reader()
    results = {}
    errors = []
    total = GIB // LINE

    def work(i):
        try:
            line = total - i * (total // 9)
            r = reader.read(big_file, lines=f"{line - 249}:{line}")
            results[i] = (r.lines, r.bytes["start"], r.total_lines, r.content.count("\n"))
        except Exception as e:  # noqa: BLE001 - the test reports any
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i, (lines, start, total_lines, n) in results.items():
        line = total - i * (total // 9)
        assert lines == {"start": line - 249, "end": line}
        assert start == (line - 250) * LINE and total_lines == total and n == 250


def test_a_file_truncated_while_read(tmp_path):
    p = tmp_path / "churn.log"
    full = b"".join(b"%063d\n" % i for i in range(200_000))
    p.write_bytes(full)
    stop = threading.Event()

    def churn():
        while not stop.is_set():
            with open(p, "r+b") as f:
                f.truncate(len(full) // 3)
            with open(p, "wb") as f:
                f.write(full)

    t = threading.Thread(target=churn)
    t.start()
    outcomes = {"ok": 0, "changed": 0, "range": 0}
    try:
        reader = rr.Reader(retries=0, cache_bytes=0)
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            try:
                r = reader.read(p, lines="150000:+9")
            except rr.ChangedError:
                outcomes["changed"] += 1
                continue
            except rr.InvalidRangeError:
                outcomes["range"] += 1  # the short state: line 150000 is past its end
                continue
            outcomes["ok"] += 1
            assert r.content == full[149_999 * 64 : 150_009 * 64].decode()
    finally:
        stop.set()
        t.join()
    assert sum(outcomes.values()) > 0, outcomes


def rss_kib() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_ten_thousand_responds_keep_memory_flat(tmp_path):
    (tmp_path / "a.txt").write_text("".join(f"line {i}\n" for i in range(3000)))
    tool = rr.DialectTool("claude-code", workspace=rr.Workspace(tmp_path))
    call = {"file_path": str(tmp_path / "a.txt"), "offset": 100, "limit": 50}
    for _ in range(1000):
        tool.respond(call).to_dict()
    before = rss_kib()
    for _ in range(10_000):
        r = tool.respond(call)
        r.to_dict()
    grown = rss_kib() - before
    assert not r.is_error
    # 10,000 answers of ~1.5 KB each would be 15 MB if kept; allocator noise is < 4 MB.
    assert grown < 4096, f"RSS grew by {grown} KiB over 10,000 calls"


def test_a_fifo_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(rr.NotRegularFileError) as info:
        rr.Reader().read(fifo, head=1)
    assert time.monotonic() - started < 5
    assert str(info.value) == f'Not a regular file (fifo): "{fifo}"'
    tool = rr.DialectTool("read_file", workspace=rr.Workspace(tmp_path))
    answer = tool.respond({"path": "pipe"})
    assert answer.is_error and "fifo" in answer.text


def test_a_projects_rule_files(tmp_path):
    (tmp_path / ".geminiignore").write_text("notes/\n*.secret\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "plan.md").write_text("plan\n")
    (tmp_path / "a.secret").write_text("s\n")
    (tmp_path / "ok.txt").write_text("fine\n")
    ws = rr.Workspace(tmp_path, rule_files=[".geminiignore"])
    assert ws.rule_files == [{"path": ".geminiignore", "syntax": "gitignore", "nested": False, "in_git_repository": False, "case_insensitive": False}]
    reader = rr.Reader()
    assert reader.read_in(ws, "ok.txt").content == "fine\n"
    for p in ("notes/plan.md", "a.secret", "notes/missing.md"):
        with pytest.raises(rr.ProtectedError) as info:
            reader.read_in(ws, p)
        # The refusal names the rule and its file, the same whether the path exists or not.
        assert ".geminiignore" in str(info.value), str(info.value)
    # The gemini preset reads .geminiignore itself, and refuses in Gemini CLI's words.
    tool = rr.DialectTool("gemini", workspace=rr.Workspace(tmp_path))
    answer = tool.respond({"file_path": str(tmp_path / "a.secret")})
    assert answer.is_error and "ignored" in answer.text, answer.text
    # Turned off as Gemini CLI's respectGeminiIgnore: false turns it off.
    d = rr.dialect("gemini")
    d["rules"]["files"] = [f for f in d["rules"]["files"] if f["path"] != ".geminiignore"]
    assert not rr.DialectTool(d, workspace=rr.Workspace(tmp_path)).respond({"file_path": str(tmp_path / "a.secret")}).is_error


def test_universal_newlines_per_call_and_per_reader(tmp_path):
    mac = tmp_path / "mac.txt"
    mac.write_bytes(b"one\rtwo\r\nthree\n")
    reader = rr.Reader()
    # By default a lone CR is content: two lines.
    assert reader.read(mac).total_lines == 2
    r = reader.read(mac, lines="2:3", line_endings="universal")
    assert r.content == "two\nthree\n" and r.total_lines == 3
    assert r.bytes == {"start": 4, "end": 15}
    assert reader.read(mac).total_lines == 2, "a call changes only itself"
    paged = rr.Reader(line_endings="universal").read(mac, max_lines=1)
    assert paged.content == "one\n" and paged.truncated["next_start_line"] == 2
    assert paged.truncated["next_start_byte"] == 4


def test_render_marks_a_cut_line_in_the_hosts_words(tmp_path):
    f = tmp_path / "long.txt"
    f.write_text("short\n" + "x" * 50 + "\n")
    r = rr.Reader(max_line_chars=10).read(f)
    kept = "2: " + "x" * 10
    assert r.render("colon").splitlines()[1] == kept + "… [line truncated: 40 more bytes]"
    assert r.render("colon", cut_marker="... [truncated]").splitlines()[1] == kept + "... [truncated]"
    marked = r.render("cat-n", cut_marker=" [+{more} from byte {next}]")
    assert marked.splitlines()[1] == "     2\t" + "x" * 10 + " [+40 from byte 16]"


def test_policies_per_call_and_per_reader(tmp_path):
    dos = tmp_path / "dos.txt"
    dos.write_bytes(b"one\r\ntwo\r\n" + "😀".encode() * 1500 + b"\n")
    reader = rr.Reader()
    assert reader.read(dos, head=1).content == "one\r\n"
    # One call's policies apply to that call only.
    r = reader.read(dos, head=2, line_endings="lf")
    assert r.content == "one\ntwo\n" and r.bytes == {"start": 0, "end": 10}
    assert reader.read(dos, head=1).content == "one\r\n"
    assert rr.Reader(line_endings="lf").read(dos, head=1).content == "one\n"
    assert len(reader.read(dos, lines="3:3").content) == 1501
    assert len(reader.read(dos, lines="3:3", line_unit="utf16").content) == 1001
    assert reader.read(dos, lines="3:3", max_line_chars=10).cut_lines[0]["shown_bytes"] == 40
    # Budgets and totals per call too.
    assert reader.read(dos, max_lines=1).truncated["reason"] == "max_lines"
    # (A fresh reader: this one's cache has counted the file's lines by now.)
    assert rr.Reader().read(dos, head=1, totals="if_known").total_lines is None
    with pytest.raises(rr.InvalidParamsError) as e:
        reader.read(dos, head=1, line_endings="crlf")
    assert e.value.parameter == "line_endings"


def test_encoding_and_binary_policies(tmp_path):
    py = tmp_path / "a.py"
    py.write_bytes(b"import os\xff\n")
    reader = rr.Reader()
    assert reader.read(py).encoding == "windows-1252"
    assert reader.read(py, encoding="no_legacy").content == "import os\ufffd\n"
    assert rr.Reader(encoding="no_legacy").read(py).encoding == "utf-8"
    assert reader.read(py, encoding="latin1").content == "import os\u00ff\n"
    # UTF-16BE without a mark: UTF-16 by its zero bytes, or UTF-8 first (OpenHands SDK).
    be = tmp_path / "be.txt"
    be.write_bytes("hi there\n".encode("utf-16-be"))
    assert reader.read(be).content == "hi there\n"
    assert reader.read(be, encoding="utf8_first").content == "\0h\0i\0 \0t\0h\0e\0r\0e\0\n"
    bells = tmp_path / "bells.txt"
    bells.write_bytes(b"\x07\x0b ring\n")
    with pytest.raises(rr.BinaryFileError):
        reader.read(bells)
    assert reader.read(bells, control_bytes="tolerated").content == "\x07\x0b ring\n"
    latin = tmp_path / "menu.txt"
    latin.write_bytes(b"caf\xe9 cr\xe8me\n")
    with pytest.raises(rr.BinaryFileError):
        reader.read(latin, invalid_utf8_binary=0.1)
    late_nul = tmp_path / "late.txt"
    late_nul.write_bytes(b"text\n" * 3000 + b"\0\n")
    assert reader.read(late_nul, head=1).content == "text\n"
    with pytest.raises(rr.BinaryFileError):
        reader.read(late_nul, nul_bytes="in_read", max_lines=0)


def test_classify(tmp_path):
    latin = tmp_path / "menu.txt"
    latin.write_bytes(b"caf\xe9 cr\xe8me\n")
    c = rr.classify(latin)
    assert c["verdict"] == "text" and c["encoding"] == "windows-1252"
    assert rr.classify(latin, encoding="no_legacy")["encoding"] == "utf-8"
    b = rr.Reader(invalid_utf8_binary=0.1).classify(latin)
    assert b == {"verdict": "binary", "mime": "application/octet-stream", "reason": "invalid_utf8"}
    png = tmp_path / "x.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR")
    assert rr.classify(png)["mime"] == "image/png"
    with pytest.raises(FileNotFoundError):
        rr.classify(tmp_path / "missing")
    with pytest.raises(rr.InvalidParamsError):
        rr.classify(latin, head=3)


def test_an_errors_values_are_attributes(tmp_path):
    (tmp_path / "f.txt").write_text("".join(f"line {i}\n" for i in range(1, 301)))
    with pytest.raises(rr.InvalidRangeError) as info:
        rr.Reader().read(str(tmp_path / "f.txt"), lines="900:")
    e = info.value
    assert e.kind == "beyond_end"
    assert (e.start, e.total_lines) == (900, 300)
    assert e.values == {"start": 900, "total_lines": 300}
    assert e.parameter == "start_line"
    with pytest.raises(rr.NotFoundError) as missing:
        rr.Reader().read(str(tmp_path / "nope.txt"))
    assert missing.value.path == str(tmp_path / "nope.txt")
    with pytest.raises(AttributeError):
        e.no_such_value


def test_every_answer_carries_its_record(tmp_path):
    (tmp_path / "f.txt").write_text("".join(f"line {i}\n" for i in range(1, 301)))
    d = rr.dialect("gemini")
    d["limits"]["max_lines"] = 50
    # Gemini CLI 0.61 answers a start past the end with an empty page; without that rule
    # the dialect refuses it, as the error record below needs.
    del d["lines"]["past_end"]
    tool = rr.DialectTool(d, workspace=rr.Workspace(tmp_path))
    r = tool.respond({"file_path": "f.txt"})
    assert not r.is_error, r.text
    assert r.record["lines"] == {"start": 1, "end": 50}
    assert r.record["total_lines"] == 300
    assert r.record["truncated"]["reason"] == "max_lines"
    assert r.record["truncated"]["next_start_line"] == 51
    past = tool.respond({"file_path": "f.txt", "start_line": 900})
    assert past.is_error
    assert past.record["error"]["kind"] == "beyond_end"
    assert past.record["error"]["values"]["total_lines"] == 300


def test_dialect_tool_host_budgets_say_where_to_continue(tmp_path):
    (tmp_path / "f.txt").write_text("".join(f"line {i}\n" for i in range(1, 301)))
    ws = rr.Workspace(tmp_path)
    tool = rr.DialectTool("claude-code", workspace=ws, max_lines=50)
    r = tool.respond({"file_path": str(tmp_path / "f.txt")})
    assert not r.is_error, r.text
    assert "50\tline 50" in r.text and "line 51\n" not in r.text
    assert "<system-reminder>" in r.text and "offset=51" in r.text
    assert r.record["host_budget"] and r.record["truncated"]["next_start_line"] == 51
    r = rr.DialectTool("claude-code", workspace=ws, max_bytes=1000).respond(
        {"file_path": str(tmp_path / "f.txt")}
    )
    last = r.record["lines"]["end"]
    assert last < 300 and f"offset={last + 1}" in r.text, r.text
    (tmp_path / "long.txt").write_text("short\n" + "abcdefghijklmnopqrstuvwxyz\n")
    r = rr.DialectTool("claude-code", workspace=ws, max_line_chars=10).respond(
        {"file_path": str(tmp_path / "long.txt")}
    )
    line = r.text.splitlines()[1]
    assert line.startswith("2\tabcdefghij") and "abcdefghijk" not in line, r.text
    assert "16 more bytes" in line and "byte 16" in line, r.text
    assert r.record["cut_lines"][0]["next_start_byte"] == 16
    with pytest.raises(rr.InvalidParamsError, match="max_lines"):
        rr.DialectTool("claude-code", max_lines="50")
