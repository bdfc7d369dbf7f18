"""The mutation operators of `make mutants`: each takes a node of the reference's syntax tree and yields the
nodes (or the text "pass", for a statement) that may replace it.
"""

import ast
import copy

ARITHMETIC = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}
BOUNDARY = {ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Lt: ast.LtE, ast.LtE: ast.Lt}
NEGATION = {
    ast.Gt: ast.LtE,
    ast.GtE: ast.Lt,
    ast.Lt: ast.GtE,
    ast.LtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
FLOATS = {0.0: 1.0, 1.0: 0.0, 2.0: 1.0}
UNWRAPPED = {"reversed", "list", "dict", "sorted", "tuple", "set", "float", "abs"}
SWAPPED_ERRORS = {"ValueError": "KeyError"}


def with_fields(node, **fields):
    clone = copy.deepcopy(node)
    for name, value in fields.items():
        setattr(clone, name, value)
    return clone


def arithmetic(node, parents):
    """a + b <-> a - b, a * b <-> a / b, and += <-> -=."""
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in ARITHMETIC:
        yield with_fields(node, op=ARITHMETIC[type(node.op)]())


def operands(node, parents):
    """a - b -> b - a and a / b -> b / a (the operators whose order matters)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Sub, ast.Div)):
        yield with_fields(node, left=copy.deepcopy(node.right), right=copy.deepcopy(node.left))


def comparison(node, parents):
    """> -> >= (boundary) and > -> <= (negation); == <-> !=, in <-> not in, is <-> is not."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op = type(node.ops[0])
        for table in (BOUNDARY, NEGATION):
            if op in table:
                yield with_fields(node, ops=[table[op]()])


def constant(node, parents):
    """0.0 -> 1.0, 1.0 -> 0.0, 2.0 -> 1.0 (another float x -> x + 1); an int n -> 1 if n == 0 else n - 1."""
    if not isinstance(node, ast.Constant) or type(node.value) not in (int, float):
        return
    if type(node.value) is float:
        yield with_fields(node, value=FLOATS.get(node.value, node.value + 1.0))
    elif not isinstance(parents.get(node), ast.UnaryOp):  # xs[-1] is the job of `index`
        yield with_fields(node, value=1 if node.value == 0 else node.value - 1)


def sign(node, parents):
    """-x -> x (so -1.0 -> 1.0)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        yield copy.deepcopy(node.operand)


def index(node, parents):
    """xs[-1] -> xs[0]: the last item becomes the first."""
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.UnaryOp)
        and isinstance(node.slice.op, ast.USub)
        and isinstance(node.slice.operand, ast.Constant)
    ):
        yield with_fields(node, slice=ast.Constant(0))


def unwrap(node, parents):
    """reversed(x) -> x, list(x) -> x, dict(x) -> x, math.tanh(x) -> x: a one-argument call becomes its argument."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords or isinstance(node.args[0], ast.Starred):
        return
    func = node.func
    if (isinstance(func, ast.Name) and func.id in UNWRAPPED) or (
        isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "math"
    ):
        yield copy.deepcopy(node.args[0])


def assign(node, parents):
    """x += y -> x = y: the contribution replaces instead of adding up."""
    if isinstance(node, ast.AugAssign):
        yield ast.Assign(targets=[copy.deepcopy(node.target)], value=copy.deepcopy(node.value), lineno=node.lineno)


def no_value(node, parents):
    """return x -> return."""
    if isinstance(node, ast.Return) and node.value is not None:
        yield with_fields(node, value=None)


def delete(node, parents):
    """A statement -> pass."""
    if isinstance(node, ast.stmt) and not isinstance(node, ast.Pass):
        yield "pass"


def exception(node, parents):
    """raise ValueError(...) -> raise KeyError(...)."""
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and isinstance(node.exc.func, ast.Name):
        other = SWAPPED_ERRORS.get(node.exc.func.id)
        if other:
            yield with_fields(node, exc=with_fields(node.exc, func=ast.Name(other, ast.Load())))


def message(node, parents):
    """raise ValueError(message) -> raise ValueError(): the error says nothing."""
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
        yield with_fields(node, exc=with_fields(node.exc, args=[], keywords=[]))


def swap(node, parents):
    """(x, y) -> (y, x) for a tuple of two different values."""
    if isinstance(node, ast.Tuple) and isinstance(node.ctx, ast.Load) and len(node.elts) == 2:
        first, second = node.elts
        if ast.dump(first) != ast.dump(second):
            yield with_fields(node, elts=[copy.deepcopy(second), copy.deepcopy(first)])


def branches(node, parents):
    """x if c else y -> y if c else x."""
    if isinstance(node, ast.IfExp):
        yield with_fields(node, body=copy.deepcopy(node.orelse), orelse=copy.deepcopy(node.body))


def no_filter(node, parents):
    """[x for x in xs if c] -> [x for x in xs]."""
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        for number, generator in enumerate(node.generators):
            if generator.ifs:
                clone = copy.deepcopy(node)
                clone.generators[number].ifs = []
                yield clone


OPERATORS = {
    "arithmetic": arithmetic,
    "operands": operands,
    "comparison": comparison,
    "constant": constant,
    "sign": sign,
    "index": index,
    "unwrap": unwrap,
    "assign": assign,
    "return": no_value,
    "delete": delete,
    "exception": exception,
    "message": message,
    "swap": swap,
    "branches": branches,
    "filter": no_filter,
}
STATEMENT_ONLY = {"delete"}  # operators that make sense only in solution regions, not in a table's entries


def parent_map(tree):
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


NEEDS_PARENS = (ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.Lambda)


def replacement_text(node, new):
    if isinstance(new, str):
        return new
    text = ast.unparse(new)
    if isinstance(new, NEEDS_PARENS) and type(new) is not type(node) and isinstance(node, ast.expr):
        text = f"({text})"
    return text
