"""Lesson 5's public programs: saved_for_backward's answer, then every list of it appended to.

The answer is sent as it came back (plain copies of its lists), and each of its lists is then
appended to; the child sends the graph as it is after that (return_args), so a list shared with
the graph's own inputs shows.
"""


def _memory_copied(answer):
    """A copy of a dict of lists, its lists copied (any other answer is sent as it is, for the judge to refuse)."""
    if type(answer) is not dict:
        return answer
    return {key: list(value) if type(value) in (list, tuple) else value for key, value in answer.items()}


def memory_saved_then_edit(module, graph):
    """saved_for_backward(graph), then each list of its answer appended to: new lists leave the graph as it was."""
    answer = module.saved_for_backward(graph)
    sent = _memory_copied(answer)
    if type(answer) is dict:
        for value in answer.values():
            if type(value) is list:
                value.append("edited")
    return sent


DRIVERS = {**globals().get("DRIVERS", {}), "memory_saved_then_edit": memory_saved_then_edit}
