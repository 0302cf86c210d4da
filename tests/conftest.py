"""Shared fixtures: the repository's own tool, canned outputs and order book."""

import pytest

from toolcall.fixtures import load_orders, load_outputs, load_tool


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
