#!/usr/bin/env bash
# The same answers on every supported Python: on CPython 3.10 and 3.13 (beside the main 3.11 run), run the
# gold corpus, the fast fuzz profile and the determinism tests, and compare exec's and report's outputs
# byte for byte with the main interpreter's (report.json minus its "meta", which names the Python).
set -euo pipefail
cd "$(dirname "$0")/.."
main_python=${1:-python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

find_python() {  # an installed CPython X.Y that runs: under pyenv, or on PATH (a pyenv shim may not run)
  local version=$1 candidate
  for candidate in "$(pyenv root 2>/dev/null)/versions/$version"*/bin/python"$version" "python$version"; do
    if "$candidate" -c 'import sys' >/dev/null 2>&1; then command -v "$candidate"; return 0; fi
  done
  return 1
}

outputs() {  # PYTHON NAME: exec over every embedded corpus and the report of the FinQA corpus
  "$1" -m progexec exec --corpus all --out "$work/$2.exec.jsonl" --quiet
  "$1" -m progexec exec mathqa:test --out "$work/$2.mathqa.jsonl" --quiet
  "$1" -m progexec report --out "$work/$2.report" 2>/dev/null
  "$1" -c 'import json, sys; d = json.load(open(sys.argv[1])); d.pop("meta"); print(json.dumps(d, indent=1))' \
    "$work/$2.report/report.json" > "$work/$2.report.json"
}

outputs "$main_python" main
for version in 3.10 3.13; do
  python=$(find_python "$version") || { echo "CPython $version is not installed: cannot check it" >&2; exit 1; }
  venv="$work/venv$version"
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
  "$venv/bin/python" -m pip install --quiet -e '.[test]'
  echo "== CPython $version: gold corpus, fast fuzz profile, determinism"
  HYPOTHESIS_PROFILE=dev "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/test_corpus_gold.py tests/test_fuzz.py \
    tests/test_determinism.py tests/test_spine.py -k "not browser"
  outputs "$venv/bin/python" "py$version"
  for kind in exec.jsonl mathqa.jsonl report.json report/report.md; do
    cmp "$work/main.$kind" "$work/py$version.$kind" || { echo "CPython $version: $kind differs" >&2; exit 1; }
  done
  echo "== CPython $version: exec, MathQA and report outputs byte-identical to $("$main_python" -V)"
done
