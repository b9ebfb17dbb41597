#!/usr/bin/env python3
"""Writes a file of realistic source-like lines (Rust/Python/C/logs mixed), deterministic.

usage: gen_lines.py PATH SIZE_BYTES
"""
import random
import sys

TEMPLATES = [
    "fn {a}_{b}(&mut self, {c}: usize) -> Result<{T}, Error> {{",
    "    let {a} = self.{b}.get({c}).ok_or(Error::Missing)?;",
    "    if {a}.len() > {n} {{ return Err(Error::TooLong({n})); }}",
    "}}",
    "",
    "def {a}_{b}(self, {c}={n}):",
    "    return [{c} * i for i in range({n}) if i % 3]  # {b}",
    "static int {a}_{b}(struct {T} *{c}, size_t n) {{ return {c}->len + {n}; }}",
    "2026-11-22T05:{n2}:{n3}.{n4}Z INFO {a}::{b} request_id={n} status=200 bytes={n4}",
    "    // {a} {b} {c}: see https://example.com/{b}/{n}",
    "pub struct {T} {{ {a}: Vec<u8>, {b}: Option<String>, {c}: u64 }}",
    "        self.{a}.insert(\"{b}\".to_string(), {T}::new({n}));",
    "import {a}.{b} as {c}",
    "#[derive(Debug, Clone, PartialEq)]",
    "    /// Returns the {a} of the {b}, or `None` when the {c} is empty.",
]
WORDS = "alpha beta gamma delta index buffer reader writer parse token span line byte cache store entry value key node tree".split()
TYPES = "Config Reader Index Span Token Entry Node Store Cache Buffer".split()


def main():
    path, size = sys.argv[1], int(sys.argv[2])
    rng = random.Random(42)
    lines = []
    for _ in range(50000):
        t = rng.choice(TEMPLATES)
        lines.append(t.format(a=rng.choice(WORDS), b=rng.choice(WORDS), c=rng.choice(WORDS),
                              T=rng.choice(TYPES), n=rng.randint(0, 99999),
                              n2=rng.randint(10, 59), n3=rng.randint(10, 59), n4=rng.randint(100, 999)))
    block = ("\n".join(lines) + "\n").encode()
    written = 0
    with open(path, "wb") as f:
        while written + len(block) <= size:
            f.write(block)
            written += len(block)
        rest = size - written
        f.write(block[:rest])


if __name__ == "__main__":
    main()
