#!/usr/bin/env bash
# The Node binding's CI (called by .ci/run): install the pinned npm packages, build the
# addon with the `bindings` cargo profile (the Python extension's too: see below for when
# the library then compiles once for both), check that the committed index.js and index.d.ts
# are the ones the build generates, type-check the typed sample, and run the tests with
# node's own runner.
#
# `napi build` always passes `--target <host triple>` to cargo, so the addon and the
# library it links are built under target/<host triple>/bindings/. Another build reuses
# that library only with the same `--target`, profile and feature resolution: the Python
# extension's build resolves `syn` 3 (a proc-macro dependency) without the `extra-traits`,
# `fold` and `full` features napi-derive turns on, so it compiles its own copy unless it
# asks for them too (checked with `cargo +nightly build --unit-graph`: with them, one
# `librangeread-*.rlib` serves both).
set -euo pipefail
cd "$(dirname "$0")"

echo "== bindings/node: npm ci"
npm ci --no-audit --no-fund

echo "== bindings/node: build (cargo profile bindings)"
committed=$(mktemp -d)
trap 'rm -rf "$committed"' EXIT
cp index.js index.d.ts "$committed/"
npm run build
for f in index.js index.d.ts; do
  if ! diff -u "$committed/$f" "$f"; then
    echo "bindings/node/$f is not the generated one: run 'npm run build' in bindings/node and commit it" >&2
    exit 1
  fi
done

echo "== bindings/node: tsc --noEmit"
npx tsc --noEmit -p __test__

echo "== bindings/node: node --test"
node --test --test-reporter=spec __test__/*.test.mjs
