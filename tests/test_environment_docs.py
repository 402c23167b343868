"""docs/environment.md lists exactly the environment variables the package, tests, scripts and benchmarks read.

The variables read are found in the sources: ``os.environ.get("X")``, ``os.environ["X"]`` (not as an
assignment target), ``os.getenv("X")``, a benchmark's ``env_path("X")``, and any ``"PROGEXEC_..."``
name held in a string; the table's first column must be that set, no more, no less.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "environment.md"
READS = [re.compile(r"environ\.get\(\s*[\"']([A-Z_][A-Z0-9_]*)[\"']"),
         re.compile(r"environ\[\s*[\"']([A-Z_][A-Z0-9_]*)[\"']\s*\](?!\s*=[^=])"),
         re.compile(r"getenv\(\s*[\"']([A-Z_][A-Z0-9_]*)[\"']"),
         re.compile(r"env_path\(\s*[\"']([A-Z_][A-Z0-9_]*)[\"']"),
         re.compile(r"[\"'](PROGEXEC_[A-Z0-9_]+)[\"']")]


def read_in_code() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for folder in ("src", "tests", "scripts", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == Path(__file__).resolve():
                continue  # this test names variables without reading them
            text = path.read_text(encoding="utf-8")
            for pattern in READS:
                for name in pattern.findall(text):
                    found.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return found


def documented() -> list[str]:
    rows = [line for line in TABLE.read_text(encoding="utf-8").splitlines() if line.startswith("| `")]
    return [re.match(r"\| `([A-Z_][A-Z0-9_]*)` \|", row).group(1) for row in rows]  # type: ignore[union-attr]


def test_the_table_lists_exactly_the_variables_the_code_reads() -> None:
    names = documented()
    assert len(names) == len(set(names)), "one row per variable"
    code = read_in_code()
    assert set(names) == set(code), {"undocumented": sorted(set(code) - set(names)),
                                     "not read anywhere": sorted(set(names) - set(code))}


def test_each_row_names_where_the_variable_is_read() -> None:
    code = read_in_code()
    for row in (line for line in TABLE.read_text(encoding="utf-8").splitlines() if line.startswith("| `")):
        name, where = re.match(r"\| `([A-Z0-9_]+)` \| ([^|]+) \|", row).groups()  # type: ignore[union-attr]
        if any(path.startswith("src/") for path in code[name]):
            assert "the package" in where, row
        for path in code[name] - {p for p in code[name] if p.startswith("src/")}:
            assert path in where or Path(path).name in where, (name, path)


def test_the_readme_links_the_table() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "[docs/environment.md](docs/environment.md)" in readme and "PROGEXEC_DATA" in readme
