"""A schema whose ``$ref``s multiply (a chain of definitions each referring to the next twice) is refused when it
is checked, by counting the subschemas a value would meet once references are followed (validation.expanded_parts),
before anything is validated: a 1 KB chain of 15 cost 1 s of CPU per distinct variant, each output of each
edit running into the validation budget (issue 13, time kind). Work is counted in lines run, never timed."""

from __future__ import annotations

import itertools
import json

import pytest

from tests.workcount import growth
from toolcall.validation import MAX_EXPANDED_SUBSCHEMAS, check_schema, expanded_parts


def _defs(k: int, step, leaf: dict | None = None) -> dict:
    """``$defs`` d0 … dk, d_i = step(i + 1) (a schema using d_{i+1} twice), d_k the leaf; the root uses d0."""
    defs = {f"d{i}": step(i + 1) for i in range(k)}
    defs[f"d{k}"] = {"type": "object", **(leaf or {})}
    return {"$ref": "#/$defs/d0", "$defs": defs}


def ref(i: int) -> dict:
    return {"$ref": f"#/$defs/d{i}"}


#: Ways of using the next definition twice: every applicator a reference can sit under, and the other ways to
#: name a target (an anchor, an embedded $id, a dynamic reference).
FORMS = {
    "allOf": lambda i: {"allOf": [ref(i), ref(i)]},
    "anyOf": lambda i: {"anyOf": [ref(i), {"not": ref(i)}]},
    "oneOf": lambda i: {"oneOf": [ref(i), ref(i)]},
    "properties": lambda i: {"properties": {"a": ref(i), "b": ref(i)}},
    "if/then": lambda i: {"if": ref(i), "then": ref(i)},
    "items": lambda i: {"items": ref(i), "prefixItems": [ref(i)]},
    "ref and sibling": lambda i: {**ref(i), "not": {"not": ref(i)}},
}


def chain(k: int, form: str = "allOf") -> dict:
    return _defs(k, FORMS[form])


def anchored(k: int) -> dict:
    schema = _defs(k, lambda i: {"allOf": [{"$ref": f"#a{i}"}, {"$ref": f"#a{i}"}]})
    for i, node in enumerate(schema["$defs"].values()):
        node["$anchor"] = f"a{i}"
    schema["$ref"] = "#a0"
    return schema


def dynamic(k: int) -> dict:
    schema = _defs(k, lambda i: {"allOf": [{"$dynamicRef": f"#a{i}"}, {"$dynamicRef": f"#a{i}"}]})
    for i, node in enumerate(schema["$defs"].values()):
        node["$dynamicAnchor"] = f"a{i}"
    return schema


def embedded(k: int) -> dict:
    schema = _defs(k, lambda i: {"allOf": [{"$ref": f"https://example.com/d{i}"},
                                           {"$ref": f"https://example.com/d{i}"}]})
    for i, node in enumerate(schema["$defs"].values()):
        node["$id"] = f"https://example.com/d{i}"
    return schema


def smallest_refused(build) -> int:
    return next(k for k in range(1, 40) if expanded_parts(build(k))[0] > MAX_EXPANDED_SUBSCHEMAS)


@pytest.mark.parametrize("k", range(0, 11))
def test_a_doubling_chain_counts_two_to_the_depth(k):
    """Each d_i counts itself, its allOf's two reference nodes and twice d_{i+1}: 2^(k+2) - 2 in all."""
    assert expanded_parts(chain(k)) == (2 ** (k + 2) - 2, None)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_chain_that_cost_a_second_per_variant_is_refused_when_checked(lang):
    """The example (a 1 KB chain of 15) and the first chain over the limit: refused with the limit and the place
    where the count passes it; the longest chain under it is accepted."""
    k = smallest_refused(chain)
    assert k == 12  # 2^14 - 2 = 16 382 > 10 000 >= 2^13 - 2
    assert check_schema(json.dumps(chain(k - 1)), lang).ok
    for depth in (k, 15):
        check = check_schema(json.dumps(chain(depth)), lang)
        where = f"/$defs/d{depth - k}"
        assert (check.ok, check.code, check.keyword, check.path) == (False, "SCHEMA_TOO_EXPANDED", "$ref", where)
        assert check.message == {
            "en": f"Checking a value against this schema would apply more than {MAX_EXPANDED_SUBSCHEMAS} "
                  f"subschemas once its \"$ref\"s are followed ({where} is where the count passes the limit): some "
                  "references are used more than once at each step, so the work doubles with every step. Refer "
                  "to each definition once, or merge the chain.",
            "zh": f"沿着 \"$ref\" 展开后，拿一个值对照这个 schema 要套用超过 {MAX_EXPANDED_SUBSCHEMAS} 个子 schema"
                  f"（在 {where} 处超过上限）：有些引用在每一层都被用了不止一次，于是每多一层工作量就翻一倍。"
                  "每个定义只引用一次，或者把这条链合并起来。"}[lang]


@pytest.mark.parametrize("form", sorted(FORMS))
def test_every_applicator_that_can_double_a_reference_is_counted(form):
    """The next member: a reference used twice under any applicator is refused by some depth below 20."""
    k = smallest_refused(lambda n: chain(n, form))
    assert k < 20
    assert check_schema(json.dumps(chain(k, form))).code == "SCHEMA_TOO_EXPANDED"
    assert check_schema(json.dumps(chain(k - 1, form))).ok


@pytest.mark.parametrize("build", [anchored, dynamic, embedded], ids=["$anchor", "$dynamicRef", "embedded $id"])
def test_every_way_of_naming_a_target_is_followed(build):
    """References by anchor, dynamic anchor and embedded $id count like pointers: refused at the same depth."""
    assert smallest_refused(build) == smallest_refused(chain)
    assert check_schema(json.dumps(build(smallest_refused(build)))).code == "SCHEMA_TOO_EXPANDED"


def test_a_recursive_schema_counts_its_cycle_once():
    """A tree (a node whose children are nodes) recurses only as deep as the value: it is not refused."""
    tree = {"type": "object", "properties": {"name": {"type": "string"},
                                             "kids": {"type": "array", "items": {"$ref": "#"}}}}
    assert expanded_parts(tree) == (5, None)
    assert check_schema(json.dumps(tree)).ok


def test_counting_is_linear_in_the_schema_whatever_the_count():
    """Many distinct variants cost a student nothing but reading them: the count of a chain 4x longer (an
    expansion 2^300 times larger) takes about 4x the lines, and the check stops at the limit."""
    assert growth(lambda k: expanded_parts(chain(k)), 100) < 4.5
    salt = itertools.count()  # a new variant each time: no cache has it

    def check(k: int):
        assert check_schema(json.dumps({**chain(k, "properties"), "$comment": str(next(salt))})).code == \
            "SCHEMA_TOO_EXPANDED"
    assert growth(check, 25) < 4.5
