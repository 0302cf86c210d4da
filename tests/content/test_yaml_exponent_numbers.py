"""A number with an exponent written the way most people write it (``tolerance: 1e-3``) is text to YAML 1.1, whose
float needs a decimal point and a signed exponent (``1.0e-3``). check said "'1e-3' is not of type 'number'" at a line
that plainly holds a number, and nothing more. It now says why and what to write (issue 13: bad input not explained
where typed)."""

from types import SimpleNamespace

import pytest

from tests.content_copy import edited_copy, problem_set
from toolcall.fixtures import content_message
from toolcall.yaml_io import safe_load

PASSK = "fixtures/exercises/passk_lab.yaml"


def test_an_exercise_tolerance_written_1e_3_is_named_with_how_to_write_it(tmp_path):
    root = edited_copy(tmp_path, PASSK, "tolerance: 0.005", "tolerance: 5e-3")
    assert {(where, message) for file, where, message in problem_set(root) if file.endswith("passk_lab.yaml")} == {
        ("$.exercises[0].tolerance", "'5e-3' is not of type 'number' (YAML reads 5e-3 as text: a number with an "
                                     "exponent needs a decimal point and a signed exponent there; write 0.005)")}


@pytest.mark.parametrize("instance, wanted, written", [
    ("1e-3", "number", "0.001"), ("5e+2", "integer", "500"), ("1.0e3", ["number", "null"], "1000.0"),
    ("1e-7", "number", "1.0e-07"), (" 2E5 ", "number", "200000.0")])
def test_the_number_to_write_is_one_yaml_reads_as_a_number(instance, wanted, written):
    error = SimpleNamespace(validator="type", validator_value=wanted, instance=instance, message="m")
    assert content_message(error) == (f"m (YAML reads {instance.strip()} as text: a number with an exponent needs a "
                                       f"decimal point and a signed exponent there; write {written})")
    assert safe_load(f"x: {written}")["x"] == float(instance)  # what it says to write is a number to YAML


@pytest.mark.parametrize("instance, wanted", [("1e400", "number"), ("abc", "number"), ("1e-3", "string"),
                                              ("1e-3", ["string", "null"])])
def test_other_type_errors_keep_their_message(instance, wanted):
    error = SimpleNamespace(validator="type", validator_value=wanted, instance=instance, message="m")
    assert content_message(error) == "m"
