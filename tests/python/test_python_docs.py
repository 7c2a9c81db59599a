"""Every ```python example of docs/python.md runs as written against the build's module (from the repository root,
where its paths to ../shared/testdata resolve)."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "python.md").read_text(), re.S)


def test_the_guide_has_examples():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_guide_example_runs(python_package_dir, testdata, index):
    run = subprocess.run([sys.executable, "-c", EXAMPLES[index]], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, env={**os.environ, "PYTHONPATH": str(python_package_dir)})
    assert run.returncode == 0, f"example {index + 1}:\n{EXAMPLES[index]}\n{run.stderr}"
