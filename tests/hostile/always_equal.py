"""Always-equal return values: users_of returns an object equal to everything, backward an empty dict that claims equality."""

EXPECTED = {"evaluate": "full", "inputs_of": "full", "users_of": 0, "backward": 0}


class AlwaysEqual:
    """Equal to everything, unequal to nothing, and it prints like an empty list."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    def __hash__(self):
        return 0

    def __len__(self):
        return 0

    def __iter__(self):
        return iter(())

    def __repr__(self):
        return "[]"


class EqualDict(dict):
    """An empty dict that claims to equal any other dict."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = None


def users_of(graph, name):
    return AlwaysEqual()


def backward(graph, values, output=None):
    return EqualDict()
