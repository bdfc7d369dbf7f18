"""Every operator hands back the Var it was called on and records nothing: a tape that ignores the program earns nothing."""

FUNCTION = "Var"
FAILS = ["tape_records", "tape_sharing", "tape_order", "tape_constants"]
SCORES_ZERO = True
PATCH = [
    ('return self.tape.record("add", [self, other])', "return self"),
    ('return self.tape.record("add", [other, self])', "return self"),
    ('return self.tape.record("sub", [self, other])', "return self"),
    ('return self.tape.record("sub", [other, self])', "return self"),
    ('return self.tape.record("mul", [self, other])', "return self"),
    ('return self.tape.record("mul", [other, self])', "return self"),
    ('return self.tape.record("div", [self, other])', "return self"),
    ('return self.tape.record("div", [other, self])', "return self"),
    ('return self.tape.record("neg", [self])', "return self"),
    ('return self.tape.record("sq", [self])', "return self"),
    ('return self.tape.record("tanh", [self])', "return self"),
    ('return self.tape.record("relu", [self])', "return self"),
]
