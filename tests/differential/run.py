#!/usr/bin/env python3
"""Runs the differential suite: each agent's released read tool beside the crate's preset.

    python3 tests/differential/run.py --work DIR --tools-json TOOLS.json [--agents a,b]

run.sh installs everything and writes TOOLS.json (where each agent and each preset
driver is). For every agent this generates the calls (calls.py) over the corpus
(corpus.py), runs the agent's driver and the preset's driver on the same files, and
compares what the model sees: the text, the error flag and the media items. The only
normalization is the corpus's absolute directory, written `{root}` (and `{outside}`).
Prints `agent version: identical N/M` and the differences by cause; writes
DIR/report.json and DIR/report.md.
"""

import argparse
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

ODD_SHAPES = (
    "=str", "=float", "=frac", "=bool", "=null", '["2"', "[1.0", "[1.5", "[true", '"1,5"',
    "=[2]", "[2]", "[]", "[1,2,3]", "length=", "description", "str,", ",str", "null",
)


def cause(call, a, p):
    """The first cause a difference is filed under (the report keeps both answers)."""
    if a.get("crash"):
        return "crash in the agent"
    if p.get("crash"):
        return "crash in the preset binding"
    shape = call["id"].split(" ", 1)[1]
    if any(s in shape for s in ODD_SHAPES):
        return "argument types and shapes"
    group = call["group"]
    if group in ("encodings", "binary rules", "binary files", "line endings", "long lines", "media"):
        return {"binary files": "binary rules"}.get(group, group)
    if group == "caps":
        return "size caps and budgets"
    if group == "paths":
        return "paths (directory, missing, symlink out)"
    if any(s in shape for s in ("past", "=0", "-1", "-3", "[0,", "[5,2]", "0,5", "2,0")):
        return "past the end, zero and negative"
    if a["is_error"] == p["is_error"] and a["media"] == p["media"]:
        return "wording"
    return "other"


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


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            rec = json.loads(line)
            out[rec["id"]] = rec
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--tools-json", required=True)
    ap.add_argument("--agents", default="")
    ap.add_argument("--reuse-agents", action="store_true",
                    help="keep an agent's answers from an earlier run of the same calls")
    args = ap.parse_args()
    work = os.path.abspath(args.work)
    corpus = os.path.join(work, "corpus")
    manifest = json.load(open(os.path.join(corpus, "manifest.json")))
    root = os.path.join(corpus, "root")
    tools = json.load(open(args.tools_json))
    wanted = [a for a in args.agents.split(",") if a] or list(tools)
    report = {"agents": {}, "not_run": {k: {"package": v[0], "why": v[1]} for k, v in NOT_RUN.items()}}
    for agent in wanted:
        spec = tools[agent]
        t0 = time.time()
        out = os.path.join(work, "runs", agent)
        os.makedirs(out, exist_ok=True)
        cl = shapes.calls(spec.get("shapes", agent), manifest, root)
        calls_path = os.path.join(out, "calls.json")
        text = json.dumps(cl)
        same_calls = os.path.exists(calls_path) and open(calls_path).read() == text
        with open(calls_path, "w") as f:
            f.write(text)
        sides = {}
        for side in ("agent", "preset"):
            res = os.path.join(out, f"{side}.jsonl")
            reuse = side == "agent" and args.reuse_agents and same_calls and os.path.exists(res) \
                and len(load(res)) == len(cl)
            if not reuse:
                cmd = [c.replace("{calls}", calls_path).replace("{out}", res).replace("{root}", root)
                       for c in spec[side]]
                run(cmd, os.path.join(out, f"{side}.log"))
            sides[side] = load(res)
        same, diffs = 0, []
        for call in cl:
            a = normalize(sides["agent"].get(call["id"]) or {"text": "", "is_error": True, "media": [],
                                                              "crash": "no answer"}, corpus)
            p = normalize(sides["preset"].get(call["id"]) or {"text": "", "is_error": True, "media": [],
                                                               "crash": "no answer"}, corpus)
            if not a.get("crash") and not p.get("crash") and (a["text"], a["is_error"], a["media"]) == (
                    p["text"], p["is_error"], p["media"]):
                same += 1
                continue
            ea, ep, at = excerpt(a["text"], p["text"])
            diffs.append({
                "id": call["id"], "cause": cause(call, a, p), "args": call["args"], "tool": call["tool"],
                "agent": {"is_error": a["is_error"], "media": a["media"], "crash": a.get("crash"),
                          "chars": len(a["text"]), "excerpt": ea},
                "preset": {"is_error": p["is_error"], "media": p["media"], "crash": p.get("crash"),
                           "chars": len(p["text"]), "excerpt": ep},
                "first_difference_at": at,
            })
        report["agents"][agent] = {
            "package": spec["package"], "version": spec["version"], "preset": spec["preset_name"],
            "note": spec.get("note"), "identical": same, "calls": len(cl), "seconds": round(time.time() - t0, 1),
            "causes": dict(Counter(d["cause"] for d in diffs).most_common()), "differences": diffs,
        }
        print(f"{agent} {spec['version']}: identical {same}/{len(cl)} "
              f"(preset {spec['preset_name']}; {time.time() - t0:.0f} s)", flush=True)
        for c, n in Counter(d["cause"] for d in diffs).most_common():
            print(f"    {n:5d}  {c}")
    for agent, (pkg, why) in NOT_RUN.items():
        print(f"{agent} ({pkg}): not run: {why}")
    with open(os.path.join(work, "report.json"), "w") as f:
        json.dump(report, f, indent=1, ensure_ascii=False)
    write_markdown(report, os.path.join(work, "report.md"))
    print(f"report: {os.path.join(work, 'report.md')} and report.json")


def write_markdown(report, path):
    lines = ["# Differential suite: the released agents beside the presets", ""]
    lines += ["| agent | package | preset | identical | calls |", "|---|---|---|---:|---:|"]
    for agent, r in report["agents"].items():
        lines.append(f"| {agent} | {r['package']} {r['version']} | `{r['preset']}` | {r['identical']} | {r['calls']} |")
    for agent, r in report["not_run"].items():
        lines.append(f"| {agent} | {r['package']} | — | not run: {r['why']} | |")
    for agent, r in report["agents"].items():
        lines += ["", f"## {agent} {r['version']}: identical {r['identical']}/{r['calls']}", ""]
        if r.get("note"):
            lines += [r["note"], ""]
        by = defaultdict(list)
        for d in r["differences"]:
            by[d["cause"]].append(d)
        for c, ds in sorted(by.items(), key=lambda kv: -len(kv[1])):
            d = ds[0]
            lines.append(f"- **{c}**: {len(ds)}. e.g. `{d['id']}` args `{json.dumps(d['args'], ensure_ascii=False)[:160]}`:")
            lines.append(f"  agent ({'error' if d['agent']['is_error'] else 'ok'}, {d['agent']['chars']} chars"
                         f"{', crash ' + d['agent']['crash'] if d['agent'].get('crash') else ''}): "
                         f"`{d['agent']['excerpt'][:120]!r}`")
            lines.append(f"  preset ({'error' if d['preset']['is_error'] else 'ok'}, {d['preset']['chars']} chars): "
                         f"`{d['preset']['excerpt'][:120]!r}`")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
