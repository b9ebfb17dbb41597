#!/usr/bin/env node
// `npx rangeread-mcp`: runs the rangeread-mcp binary that this platform's package carries.
// npm installs only the optional dependency whose `os`, `cpu` and `libc` match (as esbuild
// and biome ship their binaries), so no Rust and no install script are needed. Arguments,
// standard input and output (the MCP stdio transport) and the exit status pass through.
'use strict'

const { spawnSync } = require('child_process')

const PACKAGES = {
  'linux-x64-gnu': 'rangeread-mcp-linux-x64-gnu',
  'linux-arm64-gnu': 'rangeread-mcp-linux-arm64-gnu',
  'darwin-x64': 'rangeread-mcp-darwin-x64',
  'darwin-arm64': 'rangeread-mcp-darwin-arm64',
  'win32-x64': 'rangeread-mcp-win32-x64-msvc',
}

function platformKey() {
  const { platform, arch } = process
  if (platform !== 'linux') return `${platform}-${arch}`
  // glibc reports its version in the process report; musl does not.
  const header = process.report && process.report.getReport().header
  return `linux-${arch}-${header && header.glibcVersionRuntime ? 'gnu' : 'musl'}`
}

function binaryPath() {
  if (process.env.RANGEREAD_MCP_BINARY) return process.env.RANGEREAD_MCP_BINARY
  const key = platformKey()
  const pkg = PACKAGES[key]
  if (!pkg) {
    fail(
      `rangeread-mcp: no prebuilt binary for ${key} (there are: ${Object.keys(PACKAGES).join(', ')}). ` +
        'Build it with Rust: cargo install rangeread-mcp-server, then run rangeread-mcp, ' +
        'or set RANGEREAD_MCP_BINARY to its path.',
    )
  }
  const exe = process.platform === 'win32' ? '.exe' : ''
  try {
    return require.resolve(`${pkg}/bin/rangeread-mcp${exe}`)
  } catch (e) {
    fail(
      `rangeread-mcp: the package ${pkg}, which carries the binary for ${key}, is not installed. ` +
        'npm installs it as an optional dependency of rangeread-mcp: reinstall without ' +
        '--omit=optional / --no-optional, or set RANGEREAD_MCP_BINARY to a rangeread-mcp binary.',
    )
  }
}

function fail(message) {
  process.stderr.write(message + '\n')
  process.exit(1)
}

const bin = binaryPath()
const child = spawnSync(bin, process.argv.slice(2), { stdio: 'inherit', windowsHide: true })
if (child.error) fail(`rangeread-mcp: could not start ${JSON.stringify(bin)}: ${child.error.message}`)
if (child.signal) process.kill(process.pid, child.signal)
process.exit(child.status === null ? 1 : child.status)
