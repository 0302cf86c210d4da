"""Shared fixtures: the repository's own tool, canned outputs and order book, and the unit tests'
own exercises."""

import os
from functools import cache
from pathlib import Path

import pytest
from hypothesis import settings
from streamlit import config as st_config

from toolcall.exercises import ExerciseSet, load_exercises
from toolcall.fixtures import load_orders, load_outputs, load_tool

#: The TOOLCALL_* settings a test run itself reads. Every other one is an operator's (the class's progress database
#: or data folder, the instructor sign-in) and is removed before any test runs: a run in the shell that started the
#: class wrote its test learners' progress into the class's PostgreSQL database.
TEST_RUN_SETTINGS = frozenset({"TOOLCALL_CONTENT_ROOT", "TOOLCALL_TEST_DATABASE_URL", "TOOLCALL_REQUIRE_BROWSER",
                               "TOOLCALL_REQUIRE_NGINX"})
for _name in [n for n in os.environ if n.startswith("TOOLCALL_") and n not in TEST_RUN_SETTINGS]:
    del os.environ[_name]
#: The same settings in Streamlit secrets (the checkout's or the home folder's .streamlit/secrets.toml, where an
#: instructor puts them): the tests read none; a Streamlit process a test starts is told the same.
NO_SECRETS = str(Path(__file__).resolve().parent / "fixtures" / "no-secrets.toml")  # never created
st_config.set_option("secrets.files", [NO_SECRETS])
os.environ["STREAMLIT_SECRETS_FILES"] = NO_SECRETS

#: Exercises owned by the tests (one or more of each type), so no unit test reads an instructor's file.
TEST_EXERCISES_DIR = Path(__file__).resolve().parent / "fixtures" / "exercises"


@cache
def unit_exercises() -> ExerciseSet:
    """The exercises under tests/fixtures/exercises/ (loaded once; they load without problems)."""
    loaded = load_exercises(TEST_EXERCISES_DIR)
    assert loaded.exercises and not loaded.problems, loaded.problems
    return loaded


@pytest.fixture(scope="session")
def tool():
    return load_tool()


@pytest.fixture(scope="session")
def outputs():
    return load_outputs()


@pytest.fixture(scope="session")
def book():
    return load_orders()


@pytest.fixture(scope="session")
def schema(tool):
    return tool.input_schema


# Hypothesis: the same examples on every run (a CI run must not pass or fail by luck) and no per-example
# deadline (a time limit; DEVELOPERS.md: no timed tests). A new failing example is found by a developer's
# run with HYPOTHESIS_PROFILE=explore, then pinned with @example.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
