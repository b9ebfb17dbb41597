#!/usr/bin/env bash
# Every artifact a release publishes, built into dist/ and checked as users install them:
#
#   bash scripts/dist.sh            # build everything, then scripts/dist_check.sh
#   DIST_SKIP_CHECKS=1 bash scripts/dist.sh    # build only (prints that it skipped)
#   DIST_PROFILE=ci-dist bash scripts/dist.sh  # CI: the same artifacts, built faster
#
# dist/ then holds, for version V of Cargo.toml's [workspace.package]:
#   rangeread-V.crate, rangeread-mcp-server-V.crate    crates.io (`cargo publish` dry run)
#   rangeread-V-cp39-abi3-manylinux_2_17_x86_64...whl   PyPI: the Python binding (abi3)
#   rangeread-V.tar.gz                                  PyPI: its sdist (built here once)
#   rangeread_mcp-V-py3-none-manylinux_2_17_x86_64...whl  PyPI: the server (`uvx`)
#   rangeread-V.tgz, rangeread-linux-x64-gnu-V.tgz      npm: the Node binding (napi-rs)
#   rangeread-mcp-V.tgz, rangeread-mcp-linux-x64-gnu-V.tgz  npm: the server (`npx`)
# (scripts/dist_contents.py checks that list and what each file holds.) Publishing is one
# command per registry from dist/: `cargo publish -p rangeread -p rangeread-mcp-server`,
# `twine upload dist/*.whl dist/*.tar.gz` (or `uv publish`), `npm publish` of each .tgz,
# the platform packages first. The other platforms' wheels and npm packages are built by
# .github/workflows/release.yml, which this machine does not run.
#
# Needs: Rust (rustup's stable), python3 with venv, Node 20+ with npm, and the package
# registries (crates.io, PyPI for maturin, zig, auditwheel, uv, pipx, pytest and the MCP
# SDK; npm for @napi-rs/cli, TypeScript and the MCP Inspector). Builds for the host,
# x86_64-unknown-linux-gnu only; glibc 2.17 for the wheels through zig (from PyPI).
# The cargo profile `dist` (Cargo.toml) is strip + fat LTO + one codegen unit: the smallest
# artifacts, and a long single-threaded link for each of the three. CI (.ci/run) builds
# with DIST_PROFILE=ci-dist (dev, no debug info; Cargo.toml says why) and packages the
# crates without compiling them again, to stay within its time: the same packaging and
# checks, unoptimized binaries. The target directory is kept, so a second run only packs
# and checks again.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export CARGO_TERM_COLOR=never
start=$SECONDS
step() { echo "== dist: $* (at $((SECONDS - start))s)"; }

triple=x86_64-unknown-linux-gnu
host=$(rustc -vV | sed -n 's/^host: //p')
if [ "$host" != "$triple" ]; then
  echo "scripts/dist.sh builds the $triple artifacts and this host is $host;" \
    "the other platforms are built by .github/workflows/release.yml" >&2
  exit 1
fi

step "one version (scripts/version.py)"
python3 scripts/version.py
version=$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)

dist=$repo/dist
stage=$repo/target/dist-stage
rm -rf "$dist" "$stage"
mkdir -p "$dist" "$stage"

# The build tools, pinned, in a virtual environment of their own (kept while the pins are
# the same).
tools=$repo/target/dist-tools
pins="maturin==1.16.0 ziglang==0.17.0 auditwheel==6.8.2"
if [ "$(cat "$tools/pins" 2>/dev/null)" != "$pins" ]; then
  step "build tools into target/dist-tools: $pins"
  rm -rf "$tools"
  python3 -m venv "$tools"
  "$tools/bin/pip" install -q --upgrade pip
  # shellcheck disable=SC2086 # the pins are words
  "$tools/bin/pip" install -q $pins
  echo "$pins" >"$tools/pins"
fi
export PATH="$tools/bin:$PATH"

# maturin with zig links against glibc 2.17 (manylinux2014); maturin checks the tag
# against the symbols the library uses, and auditwheel below checks it again.
profile=${DIST_PROFILE:-dist}
echo "dist: cargo profile $profile"
maturin_args=(--profile "$profile" --target "$triple" --zig --compatibility manylinux2014 --out "$dist")

# maturin runs cargo with the zig toolchain's environment (linker, CC/CXX/AR wrappers, and
# the target-applies-to-host setting it turns on). A `cargo` first on PATH records that
# environment for the Node addon below: built with the same one, it reuses every unit the
# wheel compiled (the library and its dependencies) instead of compiling them again.
shim=$stage/cargo-shim
cargo_env=$stage/maturin-cargo-env
mkdir -p "$shim"
cat >"$shim/cargo" <<EOF
#!/bin/sh
case "\$1" in build | rustc) env -0 >"$cargo_env" ;; esac
exec "$(command -v cargo)" "\$@"
EOF
chmod 755 "$shim/cargo"

step "Python: the abi3 wheel and the sdist (maturin)"
PATH="$shim:$PATH" maturin build -m bindings/python/Cargo.toml "${maturin_args[@]}"
maturin sdist -m bindings/python/Cargo.toml --out "$dist"

step "Node: the addon (napi build) and the napi-rs packages"
# The addon links through the zig wrapper maturin wrote for the wheels (glibc 2.17 as
# theirs), in the environment maturin gave cargo (recorded above), Python's own variables
# aside: the library's units are the wheel's.
[ -s "$cargo_env" ] || { echo "dist: maturin's cargo environment was not recorded ($cargo_env)" >&2; exit 1; }
maturin_env=$(python3 - "$cargo_env" <<'EOF'
import os, re, shlex, sys
skip = re.compile(r"^(PATH|SHLVL|_|PWD|OLDPWD|PYO3_.*|PYTHON_.*)$")
for item in open(sys.argv[1], "rb").read().split(b"\0"):
    key, sep, value = item.decode().partition("=")
    if sep and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) and not skip.match(key) and os.environ.get(key) != value:
        print(f"export {key}={shlex.quote(value)}")
EOF
)
echo "dist: the Node addon builds in maturin's cargo environment:" $(sed -n 's/^export \([^=]*\)=.*/\1/p' <<<"$maturin_env")
(
  cd bindings/node
  npm ci --no-audit --no-fund
  eval "$maturin_env"
  npx napi build --platform --profile "$profile" --target "$triple" --js index.js --dts index.d.ts
  git diff --exit-code -- index.js index.d.ts || {
    echo "bindings/node/index.js or index.d.ts is not the generated one: run 'npm run build' in bindings/node and commit it" >&2
    exit 1
  }
)
node_stage=$stage/node
mkdir -p "$node_stage"
cp bindings/node/package.json bindings/node/index.js bindings/node/index.d.ts bindings/node/README.md \
  LICENSE-MIT LICENSE-APACHE "$node_stage/"
napi=$repo/bindings/node/node_modules/.bin/napi
(
  cd "$node_stage"
  # napi-rs's own layout: npm/<platform>/ packages (`napi create-npm-dirs`), the addon in
  # its platform's package, and the main package's optionalDependencies naming every
  # platform package. On a release, `napi artifacts` and `napi pre-publish` do the last two
  # with every platform's addon (.github/workflows/release.yml); both refuse a release
  # with platforms missing, so here, with the one addon this machine builds, they are
  # done as those commands do them.
  "$napi" create-npm-dirs --npm-dir npm
  cp "$repo/bindings/node/rangeread.linux-x64-gnu.node" npm/linux-x64-gnu/
  # shellcheck disable=SC2016 # the quotes hold JavaScript, its template literals included
  node -e '
    const fs = require("fs")
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"))
    pkg.optionalDependencies = {}
    for (const dir of fs.readdirSync("npm").sort()) {
      const sub = JSON.parse(fs.readFileSync(`npm/${dir}/package.json`, "utf8"))
      pkg.optionalDependencies[sub.name] = pkg.version
    }
    fs.writeFileSync("package.json", JSON.stringify(pkg, null, 2) + "\n")
  '
  cp LICENSE-MIT LICENSE-APACHE npm/linux-x64-gnu/
  npm pack --pack-destination "$dist" ./npm/linux-x64-gnu
  npm pack --pack-destination "$dist" .
)

step "the MCP server: the rangeread-mcp wheel (maturin bin bindings)"
# (after the Node addon: the addon is built in the Python wheel's cargo environment,
# before any other build can touch a unit they share)
maturin build -m mcp-server/Cargo.toml "${maturin_args[@]}"

for whl in "$dist"/*.whl; do
  # `auditwheel show` names the most compatible tag the wheel's symbols allow.
  shown=$(auditwheel show "$whl")
  echo "$shown"
  # (its lines are wrapped at any space)
  tr -s '\n ' '  ' <<<"$shown" | grep -q 'consistent with the following platform tag: "manylinux_2_17_x86_64"' || {
    echo "auditwheel does not find $(basename "$whl") consistent with manylinux_2_17_x86_64" >&2
    exit 1
  }
done

step "the MCP server's npm packages: the launcher and linux-x64-gnu"
mcp_stage=$stage/mcp
cp -r mcp-server/npm "$mcp_stage"
mkdir -p "$mcp_stage/linux-x64-gnu/bin"
# The binary the wheel carries (built once): maturin puts it under the wheel's scripts.
python3 - "$dist"/rangeread_mcp-"$version"-*.whl "$mcp_stage/linux-x64-gnu/bin/rangeread-mcp" <<'EOF'
import sys, zipfile
whl, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(whl) as z:
    name = next(n for n in z.namelist() if n.endswith(".data/scripts/rangeread-mcp"))
    open(out, "wb").write(z.read(name))
EOF
chmod 755 "$mcp_stage/linux-x64-gnu/bin/rangeread-mcp"
for p in rangeread-mcp linux-x64-gnu; do
  cp mcp-server/README.md LICENSE-MIT LICENSE-APACHE "$mcp_stage/$p/"
  npm pack --pack-destination "$dist" "$mcp_stage/$p"
done

step "crates: cargo publish --dry-run, the library then the server"
# One command for both: cargo packages them in dependency order and verifies the server
# against the library just packaged (not crates.io's).
# CI (DIST_PROFILE=ci-dist) packages without the compile: `cargo publish` compiles each
# package again on a release, and on 2 cores CI has no time for it twice.
verify=()
if [ "$profile" = ci-dist ]; then
  verify=(--no-verify)
  echo "dist: the crates are packaged, not compiled again (--no-verify; \`cargo publish\` compiles them on a release)"
fi
cargo publish --dry-run --locked "${verify[@]}" -p rangeread -p rangeread-mcp-server
# The dry run keeps its .crate files only in a temporary directory: write them again
# (verified just above) where cargo puts packages.
cargo package --locked --no-verify -p rangeread -p rangeread-mcp-server
cp "target/package/rangeread-$version.crate" "target/package/rangeread-mcp-server-$version.crate" "$dist/"

# docs.rs builds the crate's documentation with nightly and `--cfg docsrs` (the feature
# labels): a release checks that build here. CI (ci-dist) leaves it out: a full nightly
# check of every dependency in its own target directory, over 2 minutes on 2 cores.
if [ "$profile" != ci-dist ]; then
  step "crates: the documentation as docs.rs builds it (nightly, --cfg docsrs)"
  if cargo +nightly --version >/dev/null 2>&1; then
    RUSTDOCFLAGS="--cfg docsrs -D warnings" cargo +nightly doc --no-deps --all-features \
      --target-dir target/docsrs
  else
    echo "dist: the docs.rs build needs a nightly toolchain (rustup toolchain install nightly)" >&2
    exit 1
  fi
fi

step "Python: a wheel built from the sdist"
# The sdist builds: pip unpacks it and builds a wheel from it alone (maturin from PyPI),
# in the dev profile and the workspace's target directory (the tests' compiled
# dependencies are reused; only what the sdist carries compiles anew).
sdist_venv=$repo/target/dist-sdist-venv
rm -rf "$sdist_venv" "$stage/sdist-wheel"
python3 -m venv "$sdist_venv"
CARGO_TARGET_DIR=$repo/target MATURIN_PEP517_ARGS="--profile dev" \
  "$sdist_venv/bin/pip" wheel -q --no-deps -w "$stage/sdist-wheel" "$dist/rangeread-$version.tar.gz"
"$sdist_venv/bin/pip" install -q --no-index "$stage"/sdist-wheel/*.whl
(cd "$stage" && "$sdist_venv/bin/python" -c "import rangeread; print('the sdist builds: rangeread', rangeread.__version__, 'from', rangeread.__file__)")

step "what dist/ holds (scripts/dist_contents.py)"
python3 scripts/dist_contents.py "$dist"

if [ -n "${DIST_SKIP_CHECKS:-}" ]; then
  echo "dist: installed checks SKIPPED (DIST_SKIP_CHECKS is set): run bash scripts/dist_check.sh"
else
  bash scripts/dist_check.sh "$dist"
fi
step "done: dist/ built and checked in $((SECONDS - start))s"
