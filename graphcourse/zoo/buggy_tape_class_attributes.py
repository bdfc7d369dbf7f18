"""Makes graph and values class attributes (graph = [] in the class body): every tape shares one list and one dict."""

FUNCTION = "Tape"
FAILS = ["tape_leaves"]
PATCH = [
    (
        "    def __init__(self):\n        self.graph = []\n        self.values = {}\n",
        "    graph = []  # one list and one dict, made once with the class, for every tape there will be\n"
        "    values = {}\n\n    def __init__(self):\n",
    ),
    ("is already on this tape; give every leaf its own name", "is already on this tape"),
]
