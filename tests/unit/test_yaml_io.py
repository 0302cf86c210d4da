"""toolcall.yaml_io.safe_load (LibYAML's safe loader) reads every YAML file of the repository to the same
data as ``yaml.safe_load``, and refuses what it refuses, with a line mark."""

from pathlib import Path

import pytest
import yaml

from toolcall.lessons import split_front_matter
from toolcall.yaml_io import SafeLoader, safe_load

REPO = Path(__file__).resolve().parents[2]
FILES = sorted(p for folder in ("fixtures", "toolcall/locales", ".github") if (REPO / folder).exists()
               for p in (REPO / folder).rglob("*.y*ml"))
LESSONS = sorted((REPO / "lessons").rglob("*.md"))


def test_libyaml_is_used_when_pyyaml_has_it():
    assert SafeLoader is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_yaml_file_reads_the_same(path):
    text = path.read_text(encoding="utf-8")
    assert safe_load(text) == yaml.safe_load(text)


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: str(p.relative_to(REPO)))
def test_every_lesson_front_matter_reads_the_same(path):
    head = split_front_matter(path.read_text(encoding="utf-8"))[0]
    assert safe_load(head) == yaml.safe_load(head)


@pytest.mark.parametrize("text", ["a: [1, 2", "a: !!python/object:os.system x", "key: *nowhere", "\tx: 1",
                                  "a: \ud800", "a: \x00", "\x1b"])
def test_what_yaml_safe_load_refuses_is_refused_with_its_words(text):
    """The same error, message and line mark as yaml.safe_load (the fixture loaders quote them)."""
    with pytest.raises(yaml.YAMLError) as pure:
        yaml.safe_load(text)
    with pytest.raises(yaml.YAMLError) as fast:
        safe_load(text)
    assert (type(fast.value), str(fast.value)) == (type(pure.value), str(pure.value))
