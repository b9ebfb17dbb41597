#!/usr/bin/env python3
"""Runs the differential suite: each agent's released read tool beside the crate's preset.

    python3 tests/differential/run.py --work DIR --tools-json TOOLS.json [--agents a,b]
        [--corpus CORPUS --out OUT]

run.sh installs everything and writes TOOLS.json (where each agent and each preset
driver is). For every agent this generates the calls (calls.py) over the corpus
(corpus.py), runs the agent's driver and the preset's driver on the same files, and
compares what the model sees: the text, the error flag and the media items. The only
normalization is the corpus's absolute directory, written `{root}` (and `{outside}`).
Prints `agent version: identical N/M` and the differences by cause; writes
DIR/report.json and DIR/report.md. `--corpus` takes another corpus laid out as corpus.py
lays it out (outside_corpus.py's), `--out` the directory of its runs and report (so that
the answers kept for one corpus are never taken for another's).
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import calls as shapes  # noqa: E402

# Agents that cannot be run from their released package, with why (docs/mcp.md says the
# same; the presets follow their source instead).
NOT_RUN = {
    "codex": (
        "@openai/codex 0.171.0",
        "offers no read_file tool any more: its binary lacks the tool's strings, and a "
        "model's read_file call gets \"unsupported call: read_file\"",
    ),
    "crush": (
        "@charmland/crush",
        "its npm package downloads the binary from GitHub when installed, which the "
        "package registries alone do not give",
    ),
}

def cause(call, a, p, baseline_differs):
    """The first cause a difference is filed under (the report keeps both answers).
    A call shape that differs on the plain baseline file too is the shape's doing
    (its zero, negative or past-the-end value, or the answer's form); otherwise the
    file's kind is."""
    if a.get("crash"):
        return "crash in the agent"
    if p.get("crash"):
        return "crash in the preset binding"
    if p["is_error"] and p["text"].startswith("Unknown tool"):
        return "a tool the preset does not serve"
    shape = call["id"].split(" ", 1)[1]
    if shapes.is_type_shape(shape):
        return "argument types and shapes"
    if baseline_differs:
        if "past" in shape:
            return "past the end"
        if any(s in shape for s in ("=0", "-1", "-3", "[0,", "[5,2]", "2,0", "end=2")):
            return "zero, negative and reversed values"
        return "wording and form"
    group = call["group"]
    return {
        "binary files": "binary rules",
        "caps": "size caps and budgets",
        "paths": "paths (directory, missing, symlink out)",
        "baseline": "wording and form",
    }.get(group, group)


def normalize(rec, corpus):
    root = os.path.join(corpus, "root")
    outside = os.path.join(corpus, "outside")
    t = rec.get("text", "").replace(root, "{root}").replace(outside, "{outside}")
    return {**rec, "text": t}


def excerpt(a, b, width=160):
    """The two texts around their first difference."""
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    s = max(i - 40, 0)
    return a[s:s + width], b[s:s + width], i


def run(cmd, log):
    with open(log, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        tail = open(log).read()[-2000:]
        raise SystemExit(f"differential: {' '.join(cmd[:3])} ... failed ({r.returncode}):\n{tail}")


def reusable(out, cl, spec, root):
    """An earlier run's agent answers to calls with the same id and arguments (a run
    cut short, or one with more calls, keeps what it got), from the same installed agent:
    a changed version or pinned dependency (`with`) asks every call again."""
    res, prev = os.path.join(out, "agent.jsonl"), os.path.join(out, "agent.calls.json")
    if not (os.path.exists(res) and os.path.exists(prev)):
        return {}
    pins = os.path.join(out, "agent.pins.json")
    if not os.path.exists(pins) or json.load(open(pins)) != agent_pins(spec):
        return {}
    # A corpus file whose bytes changed (a generator fixed) is asked again.
    files = os.path.join(out, "agent.files.json")
    if not os.path.exists(files):
        return {}
    was, now = json.load(open(files)), file_hashes(root, cl)
    before = {c["id"]: c for c in json.load(open(prev))}
    got = load(res)
    return {c["id"]: got[c["id"]] for c in cl
            if c["id"] in got and before.get(c["id"], {}).get("args") == c["args"]
            and before[c["id"]].get("tool") == c.get("tool")
            and was.get(c.get("file")) == now.get(c.get("file"))}


def file_hashes(root, cl):
    """Each corpus file's SHA-256 (a directory or missing path: its kind)."""
    out = {}
    for name in {c.get("file") for c in cl}:
        if name is None:
            continue
        p = os.path.join(root, name)
        if os.path.isfile(p):
            h = hashlib.sha256()
            with open(p, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
            out[name] = h.hexdigest()
        else:
            out[name] = "dir" if os.path.isdir(p) else "missing"
    return out


def agent_pins(spec):
    return {"version": spec["version"], "with": spec.get("with", [])}


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:  # the last line of a run cut short
                continue
            out[rec["id"]] = rec
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--tools-json", required=True)
    ap.add_argument("--agents", default="")
    ap.add_argument("--min-identical", default=None,
                    help="fail (exit 1) when an agent's share of identical calls is below this "
                         "percentage: one number for every agent, or AGENT=N,AGENT=N (the "
                         "agents not named are not checked)")
    ap.add_argument("--corpus", default=None,
                    help="the corpus directory (root/ and manifest.json); WORK/corpus by default")
    ap.add_argument("--out", default=None,
                    help="where runs/ and the report go; WORK by default")
    ap.add_argument("--reuse-agents", action="store_true",
                    help="keep an agent's answers to the same calls from an earlier run "
                         "(and run only the calls it lacks)")
    args = ap.parse_args()
    work = os.path.abspath(args.work)
    corpus = os.path.abspath(args.corpus or os.path.join(work, "corpus"))
    dest = os.path.abspath(args.out or work)
    manifest = json.load(open(os.path.join(corpus, "manifest.json")))
    # The file whose differences are the call shape's own (corpus.py's plain.txt).
    baseline = {e["name"] for e in manifest if e["group"] == "baseline"}
    root = os.path.join(corpus, "root")
    tools = json.load(open(args.tools_json))
    wanted = [a for a in args.agents.split(",") if a] or list(tools)
    report = {"agents": {}, "not_run": {k: {"package": v[0], "why": v[1]} for k, v in NOT_RUN.items()}}
    # A run of some agents keeps the others' figures from the last run.
    old = os.path.join(dest, "report.json")
    if os.path.exists(old):
        report["agents"] = {k: v for k, v in json.load(open(old)).get("agents", {}).items() if k in tools}
    for agent in wanted:
        spec = tools[agent]
        t0 = time.time()
        out = os.path.join(dest, "runs", agent)
        os.makedirs(out, exist_ok=True)
        cl = shapes.calls(spec.get("shapes", agent), manifest, root)
        calls_path = os.path.join(out, "calls.json")
        with open(calls_path, "w") as f:
            json.dump(cl, f)
        sides = {}
        for side in ("agent", "preset"):
            res = os.path.join(out, f"{side}.jsonl")
            todo, kept = cl, {}
            if side == "agent" and args.reuse_agents:
                kept = reusable(out, cl, spec, root)
                todo = [c for c in cl if c["id"] not in kept]
            if todo:
                part = os.path.join(out, f"{side}.todo.json")
                with open(part, "w") as f:
                    json.dump(todo, f)
                got = res + ".new"
                cmd = [c.replace("{calls}", part).replace("{out}", got).replace("{root}", root)
                       .replace("{run}", out) for c in spec[side]]
                run(cmd, os.path.join(out, f"{side}.log"))
                kept.update(load(got))
                os.remove(got)
            with open(res, "w") as f:
                for c in cl:
                    if c["id"] in kept:
                        f.write(json.dumps(kept[c["id"]]) + "\n")
            with open(os.path.join(out, f"{side}.calls.json"), "w") as f:
                json.dump(cl, f)
            if side == "agent":
                with open(os.path.join(out, "agent.pins.json"), "w") as f:
                    json.dump(agent_pins(spec), f)
                with open(os.path.join(out, "agent.files.json"), "w") as f:
                    json.dump(file_hashes(root, cl), f)
            sides[side] = load(res)
        same, diffs, differs = 0, [], {}
        answers = []
        for call in cl:
            a = normalize(sides["agent"].get(call["id"]) or {"text": "", "is_error": True, "media": [],
                                                              "crash": "no answer"}, corpus)
            p = normalize(sides["preset"].get(call["id"]) or {"text": "", "is_error": True, "media": [],
                                                               "crash": "no answer"}, corpus)
            equal = not a.get("crash") and not p.get("crash") and (a["text"], a["is_error"], a["media"]) == (
                p["text"], p["is_error"], p["media"])
            answers.append((call, a, p, equal))
            if call["file"] in baseline:
                differs[(call["tool"], call["id"].split(" ", 1)[1])] = not equal
        for call, a, p, equal in answers:
            if equal:
                same += 1
                continue
            ea, ep, at = excerpt(a["text"], p["text"])
            base = differs.get((call["tool"], call["id"].split(" ", 1)[1]), False)
            diffs.append({
                "id": call["id"], "cause": cause(call, a, p, base), "args": call["args"], "tool": call["tool"],
                "agent": {"is_error": a["is_error"], "media": a["media"], "crash": a.get("crash"),
                          "chars": len(a["text"]), "excerpt": ea},
                "preset": {"is_error": p["is_error"], "media": p["media"], "crash": p.get("crash"),
                           "chars": len(p["text"]), "excerpt": ep},
                "first_difference_at": at,
            })
        report["agents"][agent] = {
            "package": spec["package"], "version": spec["version"], "with": spec.get("with", []),
            "preset": spec["preset_name"],
            "note": spec.get("note"), "identical": same, "calls": len(cl), "seconds": round(time.time() - t0, 1),
            "causes": dict(Counter(d["cause"] for d in diffs).most_common()), "differences": diffs,
        }
        # A call the agent crashes on shows the model nothing to compare with (the issue
        # that asked for this suite counted them apart): the share of the calls it
        # answers is printed beside the share of all.
        crashed = sum(1 for _, a, _, _ in answers if a.get("crash"))
        report["agents"][agent]["agent_crashes"] = crashed
        answered = (f"; of the {len(cl) - crashed} calls the agent answers, {same} "
                    f"({100 * same / max(1, len(cl) - crashed):.1f}%); {crashed} crash in the agent"
                    if crashed else "")
        print(f"{agent} {spec['version']}: identical {same}/{len(cl)} "
              f"(preset {spec['preset_name']}; {time.time() - t0:.0f} s{answered})", flush=True)
        for c, n in Counter(d["cause"] for d in diffs).most_common():
            print(f"    {n:5d}  {c}")
    for agent, (pkg, why) in NOT_RUN.items():
        print(f"{agent} ({pkg}): not run: {why}")
    with open(os.path.join(dest, "report.json"), "w") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
    write_markdown(report, os.path.join(dest, "report.md"))
    print(f"report: {os.path.join(dest, 'report.md')} and report.json")
    if args.min_identical is not None:
        floors = min_identical(args.min_identical, wanted)
        low = [f"{a} {r['identical']}/{r['calls']} (floor {floors[a]}%)"
               for a, r in report["agents"].items()
               if a in floors and 100 * r["identical"] < floors[a] * r["calls"]]
        if low:
            sys.exit(f"differential: below the floor of identical calls: {', '.join(low)}")


def min_identical(spec, wanted):
    """`99` for every agent asked for, or `gemini=98,openhands=73` for those named."""
    if "=" not in spec:
        return {a: float(spec) for a in wanted}
    floors = {}
    for part in spec.split(","):
        agent, _, n = part.partition("=")
        floors[agent.strip()] = float(n)
    return floors


def cell(text):
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`"


def side_cell(side):
    head = "crash " + side["crash"] if side.get("crash") else ("error" if side["is_error"] else "ok")
    media = f", {len(side['media'])} media" if side["media"] else ""
    return f"{head}{media}, {side['chars']} chars: {cell(repr(side['excerpt'][:100]))}"


def write_markdown(report, path):
    lines = ["# Differential suite: the released agents beside the presets", ""]
    lines += ["| agent | package | preset | identical | calls |", "|---|---|---|---:|---:|"]
    for agent, r in report["agents"].items():
        pinned = "".join(f", {w}" for w in r.get("with", []))
        lines.append(f"| {agent} | {r['package']} {r['version']}{pinned} | `{r['preset']}` | {r['identical']} | {r['calls']} |")
    for agent, r in report["not_run"].items():
        lines.append(f"| {agent} | {r['package']} | — | not run: {r['why']} | |")
    for agent, r in report["agents"].items():
        crashed = r.get("agent_crashes", 0)
        apart = (f"; {r['identical']}/{r['calls'] - crashed} of the calls the agent answers, "
                 f"{crashed} crash in it" if crashed else "")
        lines += ["", f"## {agent} {r['version']}: identical {r['identical']}/{r['calls']}{apart}", ""]
        if r.get("note"):
            lines += [r["note"], ""]
        by = defaultdict(lambda: defaultdict(list))
        for d in r["differences"]:
            by[d["cause"]][(d["tool"] or "", d["id"].split(" ", 1)[1].replace(f"{d['tool']} ", "", 1))].append(d)
        for c, per_shape in sorted(by.items(), key=lambda kv: -sum(len(v) for v in kv[1].values())):
            lines.append(f"### {c}: {sum(len(v) for v in per_shape.values())}")
            lines.append("")
            lines.append("| calls | tool, shape | e.g. file | agent | preset |")
            lines.append("|---:|---|---|---|---|")
            for (tool, shape), ds in sorted(per_shape.items(), key=lambda kv: -len(kv[1])):
                d = ds[0]
                lines.append(f"| {len(ds)} | {cell((tool + ' ' + shape).strip())} | {cell(d['id'].split(' ')[0])} | "
                             f"{side_cell(d['agent'])} | {side_cell(d['preset'])} |")
            lines.append("")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
