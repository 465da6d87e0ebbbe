"""The README's Python example runs as written."""

import re

from conftest import REPO


def test_readme_python_example(monkeypatch):
    monkeypatch.chdir(REPO)  # the example's paths are the repository's
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "README.md", "exec"), {})
