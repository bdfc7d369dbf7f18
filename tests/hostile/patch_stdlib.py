"""Patches math.isclose, operator, builtins and json in the process it runs in, then returns wrong gradients."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": "full", "backward": 0}


import builtins
import json
import math
import operator


math.isclose = lambda *args, **kwargs: True
math.fsum = lambda values: 0.0
operator.eq = lambda a, b: True
operator.ne = lambda a, b: False
builtins.abs = lambda x: 0.0
builtins.round = lambda x, ndigits=None: 0
builtins.sum = lambda values, start=0: 0
builtins.sorted = lambda values, **kwargs: list(values)
builtins.print = lambda *args, **kwargs: None
json.loads = lambda *args, **kwargs: {"status": "ok", "value": None}
json.dumps = lambda *args, **kwargs: '{"status": "ok"}'


def backward(graph, values, output=None):
    return {name: 0.5 for name in values}
