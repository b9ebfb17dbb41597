"""What scripts/dist.sh must leave in dist/, and what each artifact must hold.

    python3 scripts/dist_contents.py [DIST]    # DIST: dist/ by default

Checks the exact list of files (for the workspace's version), that each wheel is abi3 or
py3-none with a manylinux_2_17 tag and holds the extension or the `rangeread-mcp`
executable, that the sdist holds every crate the extension builds from, that each npm
tarball's package.json has the version and layout npm needs (the main packages naming
their platform packages as optionalDependencies, the platform packages limited by `os`,
`cpu` and `libc` and carrying the addon or an executable binary) and that each crate
holds its manifest. Prints each artifact with its size; exits 1 naming what is wrong.
"""

import io
import json
import pathlib
import re
import sys
import tarfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
TAG = "manylinux2014_x86_64.manylinux_2_17_x86_64"
problems = []


def version():
    text = (ROOT / "Cargo.toml").read_text()
    return re.search(r'^\[workspace\.package\]\n(?:[^\[].*\n)*?version = "([^"]+)"', text, re.M).group(1)


def expected(v):
    return {
        f"rangeread-{v}.crate": check_crate,
        f"rangeread-mcp-server-{v}.crate": check_crate,
        f"rangeread-{v}-cp39-abi3-{TAG}.whl": check_binding_wheel,
        f"rangeread-{v}.tar.gz": check_sdist,
        f"rangeread_mcp-{v}-py3-none-{TAG}.whl": check_server_wheel,
        f"rangeread-{v}.tgz": check_npm_main,
        f"rangeread-linux-x64-gnu-{v}.tgz": check_npm_platform,
        f"rangeread-mcp-{v}.tgz": check_npm_main,
        f"rangeread-mcp-linux-x64-gnu-{v}.tgz": check_npm_platform,
    }


def need(ok, what):
    if not ok:
        problems.append(what)


def check_crate(path, v):
    with tarfile.open(path) as t:
        names = t.getnames()
    name = path.name[: -len(".crate")]
    need(f"{name}/Cargo.toml" in names, f"{path.name}: no Cargo.toml")
    need(any(n.endswith("/src/main.rs") or n.endswith("/src/lib.rs") for n in names), f"{path.name}: no source")


def check_binding_wheel(path, v):
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        meta = z.read(f"rangeread-{v}.dist-info/METADATA").decode()
        wheel = z.read(f"rangeread-{v}.dist-info/WHEEL").decode()
    need(any(re.fullmatch(r"rangeread/_rangeread\.abi3\.so", n) for n in names), f"{path.name}: no rangeread/_rangeread.abi3.so")
    for f in ("rangeread/__init__.py", "rangeread/_rangeread.pyi", "rangeread/py.typed"):
        need(f in names, f"{path.name}: no {f}")
    need(f"Version: {v}\n" in meta, f"{path.name}: METADATA has no Version: {v}")
    need(f"Tag: cp39-abi3-manylinux_2_17_x86_64\n" in wheel, f"{path.name}: WHEEL has no manylinux_2_17 abi3 tag")


def check_server_wheel(path, v):
    with zipfile.ZipFile(path) as z:
        infos = {i.filename: i for i in z.infolist()}
    exe = infos.get(f"rangeread_mcp-{v}.data/scripts/rangeread-mcp")
    need(exe is not None, f"{path.name}: no scripts/rangeread-mcp")
    if exe is not None:
        need((exe.external_attr >> 16) & 0o111, f"{path.name}: rangeread-mcp is not executable")
    need(not any(n.endswith("mcp_server") for n in infos), f"{path.name}: carries mcp_server too")


def check_sdist(path, v):
    with tarfile.open(path) as t:
        names = set(t.getnames())
    top = f"rangeread-{v}"
    for f in ("pyproject.toml", "PKG-INFO"):
        need(f"{top}/{f}" in names, f"{path.name}: no {f}")
    for crate in ("bindings/python", "bindings/core", ""):
        manifest = f"{top}/{crate}/Cargo.toml".replace("//", "/")
        need(manifest in names, f"{path.name}: no {manifest}")
    need(f"{top}/src/lib.rs" in names, f"{path.name}: no src/lib.rs (the library)")


def npm_manifest(path):
    with tarfile.open(path) as t:
        members = {m.name: m for m in t.getmembers()}
        manifest = json.load(t.extractfile("package/package.json"))
    return members, manifest


def check_npm_main(path, v):
    members, pkg = npm_manifest(path)
    need(pkg.get("version") == v, f"{path.name}: version {pkg.get('version')!r}")
    optional = pkg.get("optionalDependencies", {})
    host = f"{pkg['name']}-linux-x64-gnu"
    need(optional.get(host) == v, f"{path.name}: optionalDependencies has no {host}@{v}")
    need(len(optional) == 5, f"{path.name}: {len(optional)} platform packages, not 5")
    need(all(s == v for s in optional.values()), f"{path.name}: a platform package at another version")
    need(not any(n.endswith(".node") for n in members), f"{path.name}: carries a .node (it belongs in {host})")
    if pkg["name"] == "rangeread":
        for f in ("index.js", "index.d.ts"):
            need(f"package/{f}" in members, f"{path.name}: no {f}")
    else:
        need(pkg.get("bin") == {"rangeread-mcp": "bin/rangeread-mcp.js"}, f"{path.name}: bin {pkg.get('bin')}")
        need("package/bin/rangeread-mcp.js" in members, f"{path.name}: no bin/rangeread-mcp.js")


def check_npm_platform(path, v):
    members, pkg = npm_manifest(path)
    need(pkg.get("version") == v, f"{path.name}: version {pkg.get('version')!r}")
    need((pkg.get("os"), pkg.get("cpu"), pkg.get("libc")) == (["linux"], ["x64"], ["glibc"]), f"{path.name}: os/cpu/libc {pkg}")
    if pkg["name"] == "rangeread-linux-x64-gnu":
        node = "package/rangeread.linux-x64-gnu.node"
        need(node in members and members[node].size > 0, f"{path.name}: no {node}")
        need(pkg.get("main") == "rangeread.linux-x64-gnu.node", f"{path.name}: main {pkg.get('main')!r}")
    else:
        exe = members.get("package/bin/rangeread-mcp")
        need(exe is not None and exe.mode & 0o111, f"{path.name}: no executable bin/rangeread-mcp")


def main():
    dist = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "dist")
    v = version()
    want = expected(v)
    have = sorted(p.name for p in dist.iterdir()) if dist.is_dir() else []
    for name in sorted(set(want) - set(have)):
        problems.append(f"missing: {name}")
    for name in sorted(set(have) - set(want)):
        problems.append(f"not expected: {name}")
    for name, check in want.items():
        path = dist / name
        if path.is_file():
            print(f"{path.stat().st_size / 1e6:8.2f} MB  {name}")
            check(path, v)
    for p in problems:
        print(f"dist_contents: {p}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"dist_contents: {len(want)} artifacts of version {v}, each as expected")


main()
