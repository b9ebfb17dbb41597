#!/usr/bin/env python3
"""Lists import cycles between the modules of a Rust crate; exits 1 when there is one.

usage: scripts/module_cycles.py [SRC_DIR]   (default: src)

A module uses another when its file names it by path (`crate::a::b`, `super::x` in a
`use`); comments are ignored. Cycles are looked for at each depth of the module tree
(top-level modules, then their children, ...): `source` -> `workspace` -> `object` ->
`source` is one at depth 1, `jsonl::counts` <-> `jsonl::titles` at depth 3. A child using
its own parent (`use super::{Engine, State}`) is the usual shape, not a cycle.
"""
import os
import re
import sys


def module_of(root, path):
    parts = os.path.relpath(path, root)[:-3].split(os.sep)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return parts


def edges_at(root, depth):
    edges = {}
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".rs"):
                continue
            path = os.path.join(d, f)
            me_parts = module_of(root, path)
            me = "::".join(me_parts[:depth])
            text = re.sub(r"//.*", "", open(path, encoding="utf-8").read())
            targets = []
            for t in re.findall(r"crate::((?:[a-z_0-9]+::)*[A-Za-z_0-9]+)", text):
                # Module names are lower case; the first capitalised name is an item.
                names = []
                for n in t.split("::"):
                    if not n.islower() and not n.replace("_", "").isdigit():
                        break
                    names.append(n)
                targets.append(names)
            for t in re.findall(r"\buse super::([a-z_0-9]+)", text):
                if len(me_parts) >= 2:
                    targets.append(me_parts[:-1] + [t])
            for names in targets:
                target = "::".join(names[:depth])
                if target and target != me and not me.startswith(target + "::"):
                    edges.setdefault(me, set()).add(target)
    return edges


def cycles(edges):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in list(edges):
        if v not in index:
            visit(v)
    return out


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "src"
    found = []
    for depth in range(1, 5):
        for c in cycles(edges_at(root, depth)):
            found.append(c)
            print(f"import cycle (depth {depth}): " + " -> ".join(c + [c[0]]))
    print(f"{len(found)} import cycles in {root}")
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
