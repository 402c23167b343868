"""The structure docs/architecture.md describes: the layers contract names every first-level module and
package, no import cycle between modules or first-level packages, no dataset named outside
``progexec.datasets``, and the deprecated module path of the README still working."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "progexec"
DATASET_NAMES = {"finqa", "convfinqa", "mathqa", "tatqa", "multihiertt", "financemath", "docmath"}


def _first_level() -> set[str]:
    modules = {f"progexec.{path.stem}" for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
    return modules | {f"progexec.{path.name}" for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}


def test_the_layers_contract_names_every_first_level_module_and_package() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = config["tool"]["importlinter"]["contracts"][0]
    named = {name.strip() for layer in contract["layers"] for name in layer.replace(":", "|").split("|")}
    assert contract["type"] == "layers"
    assert named == _first_level()
    assert contract["layers"][-1] == "progexec.core"
    assert contract["layers"][-4:-1] == ["progexec.oracle", "progexec.interp", "progexec.grammar"]


def _cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components with more than one member (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_no_import_cycle_between_modules_or_first_level_packages() -> None:
    grimp = pytest.importorskip("grimp")  # import-linter's graph builder (the test extra)
    graph = grimp.build_graph("progexec", cache_dir=None)  # every import: lazy and TYPE_CHECKING ones too
    modules = {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}
    assert _cycles(modules) == []
    top = {module: ".".join(module.split(".")[:2]) for module in modules}
    packages: dict[str, set[str]] = {name: set() for name in top.values()}
    for module, imported in modules.items():
        packages[top[module]].update(top[other] for other in imported if top[other] != top[module])
    assert _cycles(packages) == []


def _names_compared(tree: ast.AST) -> list[tuple[int, str]]:
    def names(node: ast.AST) -> list[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in DATASET_NAMES:
            return [node.value]
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return [name for element in node.elts for name in names(element)]
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            found += [(node.lineno, name) for side in (node.left, *node.comparators) for name in names(side)]
        elif isinstance(node, ast.Dict):
            found += [(node.lineno, name) for key in node.keys if key is not None for name in names(key)]
        elif isinstance(node, ast.Subscript):
            found += [(node.lineno, name) for name in names(node.slice)]
    return found


def test_no_dataset_name_is_compared_or_used_as_a_key_outside_the_datasets_package() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] != "datasets":
            hits = _names_compared(ast.parse(path.read_text(encoding="utf-8")))
            if hits:
                found[str(path.relative_to(PACKAGE))] = hits
    assert found == {}
    # the check itself sees what it looks for
    assert _names_compared(ast.parse('x == "tatqa"\ny = {"finqa": 1}\nz in ("mathqa", "a")')) == [
        (1, "tatqa"), (2, "finqa"), (3, "mathqa")]


def test_the_readme_s_module_paths_work_in_a_fresh_interpreter() -> None:
    code = ("import progexec\n"
            "with progexec.limits.using(progexec.Limits(max_steps=50)):\n"
            "    print(progexec.run('subtract(34.8, 1.2), divide(#0, 34.8)').official.value)\n"
            "from progexec.limits import using\n"
            "print(using is progexec.core.limits.using)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0.96552", "True"]
