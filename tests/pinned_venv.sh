# Sourced by the test set-up scripts: a virtualenv holding one pinned package from PyPI.
#
#   . tests/pinned_venv.sh
#   pinned_venv VENV PACKAGE VERSION [PIP_REQUIREMENT] [IMPORT_CHECK]
#
# Creates VENV with python3 -m venv when it has no python and pip, and installs PIP_REQUIREMENT
# (default PACKAGE==VERSION) when the installed PACKAGE is not VERSION or IMPORT_CHECK (a
# Python statement) fails. Messages go to stderr, prefixed with the calling script's name.
# Returns 0, 77 when no virtualenv can be created here, 78 when pip cannot install.
pinned_venv() {
  local venv=$1 package=$2 version=$3 spec=${4:-$2==$3} check=${5:-pass}
  local me
  me=$(basename "$0")
  if ! [ -x "$venv/bin/python" ] || ! [ -x "$venv/bin/pip" ]; then
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >&2; then
      rm -rf "$venv"
      echo "$me: cannot create a virtualenv with python3 -m venv (install python3-venv)" >&2
      return 77
    fi
  fi
  local have
  have=$("$venv/bin/python" -c "import importlib.metadata as m; print(m.version('$package'))" 2>/dev/null || true)
  if [ "$have" != "$version" ] || ! "$venv/bin/python" -c "$check" 2>/dev/null; then
    echo "$me: installing $spec from PyPI into $venv" >&2
    if ! "$venv/bin/pip" install --disable-pip-version-check --quiet "$spec" >&2; then
      echo "$me: could not install $spec (pip output above)" >&2
      return 78
    fi
  fi
}
