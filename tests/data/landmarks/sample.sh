#!/bin/sh
# Sample script.
set -eu

log() {
    echo "$*" >&2
}

function cleanup {
    rm -f "$tmp"
}

build_all () {
    for f in *.c; do
        cc -c "$f"
    done
}

log "start"
