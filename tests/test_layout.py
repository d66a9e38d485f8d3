"""The code's layout: no import cycles, the layers' directions, files of a readable size, ruff clean."""

import ast
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("companion", "vision", "hardware", "ui")
MOST_LINES = 650


def _modules():
    out = {}
    for pkg in PACKAGES:
        for folder, _, files in os.walk(os.path.join(ROOT, pkg)):
            base = os.path.relpath(folder, ROOT).replace(os.sep, ".")
            for name in sorted(files):
                if name.endswith(".py"):
                    mod = base if name == "__init__.py" else f"{base}.{name[:-3]}"
                    out[mod] = os.path.join(folder, name)
    return out


def _imports(mod: str, path: str) -> set[str]:
    """The project modules ``mod`` imports, at the top or inside functions."""
    pkg = mod if path.endswith("__init__.py") else mod.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = pkg.rsplit(".", node.level - 1)[0] if node.level > 1 else pkg
                base = parent + ("." + base if base else "")
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names}
    return {m for m in found if m.split(".")[0] in PACKAGES}


MODULES = _modules()
GRAPH = {m: {i for i in _imports(m, p) if i in MODULES and i != m} for m, p in MODULES.items()}


def test_no_import_cycle():
    done, stack = set(), []

    def visit(m):
        if m in stack:
            pytest.fail("import cycle: " + " -> ".join(stack[stack.index(m):] + [m]))
        if m in done:
            return
        stack.append(m)
        for n in sorted(GRAPH[m]):
            visit(n)
        stack.pop()
        done.add(m)

    for m in sorted(GRAPH):
        visit(m)


def test_vision_imports_nothing_of_the_app():
    bad = {m: sorted(i for i in GRAPH[m] if not i.startswith("vision")) for m in GRAPH if m.startswith("vision")}
    assert {m: v for m, v in bad.items() if v} == {}


def test_the_rules_know_no_io():
    """The rules engines import no camera, GPIO, Kivy, OpenCV or SQLite."""
    for mod in ("companion.game", "companion.durchmarsch"):
        tree = ast.parse(open(MODULES[mod], encoding="utf-8").read())
        names = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        names |= {(n.module or "").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and not n.level}
        assert not names & {"cv2", "kivy", "sqlite3", "gpiozero", "picamera2", "vision", "hardware", "ui"}, mod


def test_rendering_does_not_import_the_reader():
    reader = {m for m in MODULES if m.startswith("vision.")} - {"vision.diceset"}
    assert GRAPH["hardware.render"] & reader == set()


def test_no_source_file_over_650_lines():
    long = {}
    for top in PACKAGES + ("tests", "benchmarks", "training", "scripts"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for f in files:
                if f.endswith(".py"):
                    path = os.path.join(folder, f)
                    n = sum(1 for _ in open(path, encoding="utf-8"))
                    if n > MOST_LINES:
                        long[os.path.relpath(path, ROOT)] = n
    assert long == {}


@pytest.mark.skipif(shutil.which("ruff") is None and not os.path.exists(os.path.join(os.path.dirname(sys.executable), "ruff")),
                    reason="ruff is installed with the test extras")
def test_ruff_is_clean():
    ruff = shutil.which("ruff") or os.path.join(os.path.dirname(sys.executable), "ruff")
    out = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout[-3000:]


def test_the_readme_is_a_short_manual_whose_links_stay_in_the_repository():
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    assert len(text.splitlines()) <= 250
    import re

    for target in re.findall(r"\]\(([^)]+)\)", text):
        if "://" in target:
            continue
        path = os.path.normpath(os.path.join(ROOT, target.split("#")[0]))
        assert path.startswith(ROOT + os.sep) and os.path.exists(path), target


def test_the_readmes_example_config_states_the_codes_defaults():
    """The README's example config is the defaults (where a line is not marked as the kiosk's)."""
    import re

    from companion.config import DEFAULTS

    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    block = text.split("[app]", 1)[1].split("\n\n", 1)[0]
    for key, value in re.findall(r"^\s+(\w+) = (\S+)", block, re.M):
        if key in DEFAULTS["app"] and key != "data_dir":
            want = DEFAULTS["app"][key]
            shown = {"true": True, "false": False}.get(value, value.strip('"'))
            assert str(shown) == str(want), (key, value, want)
