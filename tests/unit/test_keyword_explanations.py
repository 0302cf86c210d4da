"""Every Draft 2020-12 keyword explained with everything the validator knows (issue 11, item 5).

One case per file of JSON-Schema-Test-Suite/tests/draft2020-12 (the checklist), each with the exact
explanation: pointer, field, keyword, expected, received, hints (which branch: if/then/else,
allOf, dependentSchemas, propertyNames) and, for anyOf/oneOf, each alternative. Combinators and
conditionals are pinned in Chinese too. ``content`` and ``default`` are annotations: no error.
"""

import pytest

from toolcall.validation import validate

CASES = {
    'additionalProperties': ({'properties': {'a': {}}, 'additionalProperties': False}, {'a': 1, 'b': 2}),
    'allOf': ({'properties': {'n': {'allOf': [{'type': 'integer'}, {'minimum': 3}]}}}, {'n': 2}),
    'anchor': ({'$defs': {'c': {'$anchor': 'C', 'type': 'integer'}}, 'properties': {'n': {'$ref': '#C'}}}, {'n': 'x'}),
    'anyOf': ({'properties': {'n': {'anyOf': [{'type': 'integer'}, {'type': 'null'}]}}}, {'n': 'x'}),
    'boolean_schema': ({'properties': {'n': False}}, {'n': 1}),
    'const': ({'properties': {'n': {'const': 'refund'}}}, {'n': 'refunds'}),
    'contains': ({'properties': {'xs': {'contains': {'type': 'integer'}}}}, {'xs': ['a', 'b']}),
    'content': ({'properties': {'s': {'contentMediaType': 'application/json'}}}, {'s': '{'}),
    'defs': ({'$defs': {'c': {'type': 'integer'}}, 'properties': {'n': {'$ref': '#/$defs/c'}}}, {'n': 'x'}),
    'dependentRequired': ({'dependentRequired': {'refund': ['reason']}}, {'refund': 1}),
    'dependentSchemas': ({'dependentSchemas': {'refund': {'required': ['reason']}}}, {'refund': 1}),
    'dynamicRef': ({'$defs': {'c': {'$dynamicAnchor': 'c', 'type': 'integer'}}, 'properties': {'n': {'$dynamicRef': '#c'}}}, {'n': 'x'}),
    'enum': ({'properties': {'r': {'enum': ['damaged', 'other']}}}, {'r': 'Damaged'}),
    'exclusiveMaximum': ({'properties': {'n': {'exclusiveMaximum': 10}}}, {'n': 10}),
    'exclusiveMinimum': ({'properties': {'n': {'exclusiveMinimum': 0}}}, {'n': 0}),
    'format': ({'properties': {'e': {'format': 'email'}}}, {'e': 'nope'}),
    'if-then-else': ({'properties': {'n': {'if': {'type': 'integer'}, 'then': {'minimum': 1}, 'else': {'type': 'string'}}}}, {'n': 0}),
    'if-else': ({'properties': {'n': {'if': {'type': 'integer'}, 'then': {'minimum': 1}, 'else': {'type': 'string'}}}}, {'n': None}),
    'items': ({'properties': {'xs': {'prefixItems': [{'type': 'integer'}], 'items': False}}}, {'xs': [1, 2]}),
    'maxContains': ({'properties': {'xs': {'contains': {'type': 'integer'}, 'maxContains': 1}}}, {'xs': [1, 2]}),
    'maxItems': ({'properties': {'xs': {'maxItems': 1}}}, {'xs': [1, 2]}),
    'maxLength': ({'properties': {'s': {'maxLength': 2}}}, {'s': 'abc'}),
    'maxProperties': ({'maxProperties': 1}, {'a': 1, 'b': 2}),
    'maximum': ({'properties': {'n': {'maximum': 10}}}, {'n': 11}),
    'minContains': ({'properties': {'xs': {'contains': {'type': 'integer'}, 'minContains': 2}}}, {'xs': [1, 'a']}),
    'minItems': ({'properties': {'xs': {'minItems': 2}}}, {'xs': [1]}),
    'minLength': ({'properties': {'s': {'minLength': 2}}}, {'s': 'a'}),
    'minProperties': ({'minProperties': 2}, {'a': 1}),
    'minimum': ({'properties': {'n': {'minimum': 1}}}, {'n': 0}),
    'multipleOf': ({'properties': {'n': {'multipleOf': 5}}}, {'n': 7}),
    'not': ({'properties': {'n': {'not': {'type': 'integer'}}}}, {'n': 1}),
    'oneOf': ({'properties': {'n': {'oneOf': [{'type': 'integer'}, {'minimum': 0}]}}}, {'n': 5}),
    'pattern': ({'properties': {'s': {'pattern': '^a$'}}}, {'s': 'a\n'}),
    'patternProperties': ({'patternProperties': {'^x_': {'type': 'integer'}}}, {'x_a': 's'}),
    'prefixItems': ({'properties': {'xs': {'prefixItems': [{'type': 'integer'}]}}}, {'xs': ['a']}),
    'properties': ({'properties': {'n': {'type': 'integer'}}}, {'n': '1'}),
    'propertyNames': ({'propertyNames': {'maxLength': 3}}, {'abcd': 1}),
    'ref': ({'$defs': {'c': {'type': 'integer'}}, 'properties': {'n': {'$ref': '#/$defs/c'}}}, {'n': 1.5}),
    'required': ({'required': ['reason']}, {}),
    'type': ({'properties': {'n': {'type': 'integer'}}}, {'n': True}),
    'unevaluatedItems': ({'properties': {'xs': {'prefixItems': [{}], 'unevaluatedItems': False}}}, {'xs': [1, 2]}),
    'unevaluatedProperties': ({'properties': {'a': {}}, 'unevaluatedProperties': False}, {'a': 1, 'b': 2}),
    'uniqueItems': ({'properties': {'xs': {'uniqueItems': True}}}, {'xs': [1, 1.0]}),
}

EXPECTED = {
    'additionalProperties': [['/b', 'b', 'additionalProperties', 'no field by this name (allowed: a)', 'integer 2', ['The schema sets additionalProperties to false, so unknown fields are refused instead of silently ignored.'], []]],
    'allOf': [['/n', 'n', 'minimum', 'a number ≥ 3', 'integer 2', ['From allOf branch 2: every branch must match.'], []]],
    'anchor': [['/n', 'n', 'type', 'type integer', 'string "x"', [], []]],
    'anyOf': [['/n', 'n', 'anyOf', 'a value matching at least one of 2 alternatives', 'string "x"', [], [['/n', 'type', 'alternative 1: type integer', 'string "x"'], ['/n', 'type', 'alternative 2: type null', 'string "x"']]]],
    'boolean_schema': [['/n', 'n', 'false', 'nothing: the schema allows no value here', 'integer 1', [], []]],
    'const': [['/n', 'n', 'const', 'exactly "refund"', 'string "refunds"', [], []]],
    'contains': [['/xs', 'xs', 'contains', 'an array with at least one item matching {"type": "integer"}', 'array ["a", "b"]', [], []]],
    'content': [],
    'defs': [['/n', 'n', 'type', 'type integer', 'string "x"', [], []]],
    'dependentRequired': [['/reason', 'reason', 'dependentRequired', 'this field too, because "refund" is present (dependentRequired)', 'nothing: the field is missing', [], []]],
    'dependentSchemas': [['/reason', 'reason', 'required', 'this required field', 'nothing: the field is missing', ['Field refund is present, so dependentSchemas/refund applies.'], []]],
    'dynamicRef': [['/n', 'n', 'type', 'type integer', 'string "x"', [], []]],
    'enum': [['/r', 'r', 'enum', 'one of "damaged", "other"', 'string "Damaged"', ['Only the case differs: the allowed value is "damaged". Enum matching is case-sensitive.'], []]],
    'exclusiveMaximum': [['/n', 'n', 'exclusiveMaximum', 'a number < 10', 'integer 10', [], []]],
    'exclusiveMinimum': [['/n', 'n', 'exclusiveMinimum', 'a number > 0', 'integer 0', [], []]],
    'format': [['/e', 'e', 'format', 'a string in the format "email"', 'string "nope"', [], []]],
    'if-then-else': [['/n', 'n', 'minimum', 'a number ≥ 1', 'integer 0', ['The "if" schema matched this value, so "then" applies.'], []]],
    'if-else': [['/n', 'n', 'type', 'type string', 'null null', ['The "if" schema did not match this value, so "else" applies.'], []]],
    'items': [['/xs', 'xs', 'items', 'at most 1 item (items: false after prefixItems)', 'array [1, 2]', [], []]],
    'maxContains': [['/xs', 'xs', 'maxContains', 'at most 1 item matching {"type": "integer"}', 'array [1, 2], with 2 matching items', [], []]],
    'maxItems': [['/xs', 'xs', 'maxItems', 'at most 1 item', 'array [1, 2]', [], []]],
    'maxLength': [['/s', 's', 'maxLength', 'at most 2 characters', 'string "abc"', [], []]],
    'maxProperties': [['', '(root)', 'maxProperties', 'at most 1 field', 'object {"a": 1, "b": 2}', [], []]],
    'maximum': [['/n', 'n', 'maximum', 'a number ≤ 10', 'integer 11', [], []]],
    'minContains': [['/xs', 'xs', 'minContains', 'at least 2 items matching {"type": "integer"}', 'array [1, "a"], with 1 matching item', [], []]],
    'minItems': [['/xs', 'xs', 'minItems', 'at least 2 items', 'array [1]', [], []]],
    'minLength': [['/s', 's', 'minLength', 'at least 2 characters', 'string "a"', [], []]],
    'minProperties': [['', '(root)', 'minProperties', 'at least 2 fields', 'object {"a": 1}', [], []]],
    'minimum': [['/n', 'n', 'minimum', 'a number ≥ 1', 'integer 0', [], []]],
    'multipleOf': [['/n', 'n', 'multipleOf', 'a multiple of 5', 'integer 7', [], []]],
    'not': [['/n', 'n', 'not', 'a value that does not match {"type": "integer"}', 'integer 1', ['The value matches the schema under "not", so it is refused.'], []]],
    'oneOf': [['/n', 'n', 'oneOf', 'a value matching exactly one of 2 alternatives', 'integer 5, which matches alternatives 1, 2', [], []]],
    'pattern': [['/s', 's', 'pattern', 'a string matching ^a$', 'string "a\\n"', [], []]],
    'patternProperties': [['/x_a', 'x_a', 'type', 'type integer', 'string "s"', [], []]],
    'prefixItems': [['/xs/0', '0', 'type', 'type integer', 'string "a"', [], []]],
    'properties': [['/n', 'n', 'type', 'type integer', 'string "1"', ['"1" is a string. JSON Schema never converts strings to numbers: "1999" is not the integer 1999.'], []]],
    'propertyNames': [['', 'abcd', 'maxLength', 'at most 3 characters', 'string "abcd"', ['This is the field name "abcd", checked against propertyNames.'], []]],
    'ref': [['/n', 'n', 'type', 'type integer', 'number 1.5', ['1.5 has a fractional part, so it is not an integer (1999.0 would be).'], []]],
    'required': [['/reason', 'reason', 'required', 'this required field', 'nothing: the field is missing', [], []]],
    'type': [['/n', 'n', 'type', 'type integer', 'boolean true', ['true is a boolean. Python treats True as 1, but JSON Schema keeps booleans and numbers apart.'], []]],
    'unevaluatedItems': [['/xs/1', '1', 'unevaluatedItems', 'no item here: the schema does not evaluate this position (unevaluatedItems: false)', 'integer 2', [], []]],
    'unevaluatedProperties': [['/b', 'b', 'unevaluatedProperties', 'no field that the schema does not evaluate (unevaluatedProperties: false)', 'integer 2', [], []]],
    'uniqueItems': [['/xs', 'xs', 'uniqueItems', 'items that are all different', 'array [1, 1.0]: items 0 and 1 are equal', [], []]],
}

EXPECTED_ZH = {
    'allOf': [['/n', 'n', 'minimum', '不小于 3 的数', '整数 2', ['来自 allOf 的第 2 个分支：每个分支都必须满足。'], []]],
    'anyOf': [['/n', 'n', 'anyOf', '满足 2 个备选条件中的至少一个', '字符串 "x"', [], [['/n', 'type', '备选 1：类型为整数', '字符串 "x"'], ['/n', 'type', '备选 2：类型为null', '字符串 "x"']]]],
    'contains': [['/xs', 'xs', 'contains', '至少有一项满足 {"type": "integer"} 的数组', '数组 ["a", "b"]', [], []]],
    'dependentRequired': [['/reason', 'reason', 'dependentRequired', '这个字段也要有，因为出现了 "refund"（dependentRequired）', '无（缺少这个字段）', [], []]],
    'dependentSchemas': [['/reason', 'reason', 'required', '必填字段，必须提供', '无（缺少这个字段）', ['出现了字段 refund，所以 dependentSchemas/refund 生效。'], []]],
    'if-then-else': [['/n', 'n', 'minimum', '不小于 1 的数', '整数 0', ['这个值满足 "if" 的 schema，所以要按 "then" 检查。'], []]],
    'if-else': [['/n', 'n', 'type', '类型为字符串', 'null null', ['这个值不满足 "if" 的 schema，所以要按 "else" 检查。'], []]],
    'minContains': [['/xs', 'xs', 'minContains', '至少 2 项满足 {"type": "integer"}', '数组 [1, "a"]，其中满足条件的有 1 项', [], []]],
    'maxContains': [['/xs', 'xs', 'maxContains', '至多 1 项满足 {"type": "integer"}', '数组 [1, 2]，其中满足条件的有 2 项', [], []]],
    'not': [['/n', 'n', 'not', '不能满足 {"type": "integer"}', '整数 1', ['这个值满足了 "not" 里的 schema，所以被拒绝。'], []]],
    'oneOf': [['/n', 'n', 'oneOf', '恰好满足 2 个备选条件中的一个', '整数 5，同时满足了备选 1, 2', [], []]],
    'propertyNames': [['', 'abcd', 'maxLength', '最多 3 个字符', '字符串 "abcd"', ['这里检查的是字段名 "abcd"，规则来自 propertyNames。'], []]],
    'unevaluatedItems': [['/xs/1', '1', 'unevaluatedItems', '这个位置不能有项：schema 没有评估到它（unevaluatedItems: false）', '整数 2', [], []]],
    'unevaluatedProperties': [['/b', 'b', 'unevaluatedProperties', '不出现 schema 没有处理到的字段（unevaluatedProperties: false）', '整数 2', [], []]],
    'uniqueItems': [['/xs', 'xs', 'uniqueItems', '各项互不相同', '数组 [1, 1.0]：第 0 项和第 1 项相同', [], []]],
    'format': [['/e', 'e', 'format', '符合 "email" 格式的字符串', '字符串 "nope"', [], []]],
}


def explained(case, lang):
    schema, instance = CASES[case]
    errors, _ = validate(instance, schema, lang, assert_format=case == "format")
    return [[e.pointer, e.field, e.keyword, e.expected, e.received, e.hints,
             [[r.pointer, r.keyword, r.expected, r.received] for r in e.reasons]] for e in errors]


@pytest.mark.parametrize("case", list(CASES))
def test_keyword_explained_in_english(case):
    assert explained(case, "en") == EXPECTED[case]


@pytest.mark.parametrize("case", list(EXPECTED_ZH))
def test_combinators_and_conditionals_explained_in_chinese(case):
    assert explained(case, "zh") == EXPECTED_ZH[case]


def test_every_suite_keyword_file_has_a_case():
    """The suite's draft2020-12 file names are the checklist (vocabulary, infinite-loop-detection
    and default have nothing to explain: covered by tests/unit/test_conformance.py)."""
    checklist = {"additionalProperties", "allOf", "anchor", "anyOf", "boolean_schema", "const", "contains", "content",
                 "defs", "dependentRequired", "dependentSchemas", "dynamicRef", "enum", "exclusiveMaximum",
                 "exclusiveMinimum", "format", "if-then-else", "items", "maxContains", "maxItems", "maxLength",
                 "maxProperties", "maximum", "minContains", "minItems", "minLength", "minProperties", "minimum",
                 "multipleOf", "not", "oneOf", "pattern", "patternProperties", "prefixItems", "properties",
                 "propertyNames", "ref", "required", "type", "unevaluatedItems", "unevaluatedProperties", "uniqueItems"}
    assert checklist <= set(CASES)
