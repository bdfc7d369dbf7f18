"""The engine's vocabulary: a Check (points, rule, judge, inputs) and a Case (one call in the sandbox).

A course's check families are lists of Checks; the runner (runner.py) sends each Case to the
sandbox and judges the reply with the judge the check names, which the course supplies.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Case:
    """One call of a learner function, with JSON arguments, and how its reply is judged.

    The child decodes the arguments ``decode`` names with the course's codecs ((position, codec)
    pairs), and with a ``driver`` it runs that public program of the course against the learner's
    module instead of calling ``fn`` itself (autograder/sandbox/child.py).
    """

    fn: str
    args: tuple
    kwargs: dict = field(default_factory=dict)
    label: str = ""  # how feedback names the input, e.g. "the worked example x=2"
    flags: dict = field(default_factory=dict)  # return_args, mutate_result
    seconds: float = 0.0  # wall clock for the call; 0 means the sandbox default
    expect: str = ""  # judge for this case alone; "" means the check's own
    judged: tuple = ()  # the only names of the answer this case judges (the course's judge reads it); () means all
    built: dict = None  # a large input: the description the sandbox child builds args from (the course's build)
    decode: tuple = ()  # ((argument position, codec name), ...): arguments the child decodes before the call
    driver: str = ""  # a course driver the child runs against the learner's module, in place of calling fn
    memory_bytes: int = 0  # memory_bound: how much more than the reference's peak on this case the call may hold

    def request(self):
        """What the sandbox call carries besides fn, args and kwargs."""
        extra = dict(self.flags)
        if self.decode:
            extra["decode"] = [list(pair) for pair in self.decode]
        if self.driver:
            extra["driver"] = self.driver
        return extra


def family_of(check_id):
    """The family a check's id names ("family/variant")."""
    return check_id.split("/")[0]


@dataclass(frozen=True)
class Check:
    id: str  # "family/variant": stable, used in gradebooks, CSVs and results JSON
    function: str
    points: float
    rule: str  # the lesson's instruction this check enforces
    expect: str  # how the reply is judged: a key of the course's judges (its judges part's JUDGES)
    cases: tuple = ()  # or a function returning them, for inputs too large to build on import
    strategy: object = None  # a Hypothesis strategy of Case, for property checks
    examples: int = 0  # how many examples the property check tries
    # growth(case) -> [(size, Case), ...], smallest first: the same call on smaller inputs. When a case of the check is
    # too slow, the runner times these to say how the time grows; a "linear_growth" check is judged by that growth.
    growth: object = None

    @property
    def family(self):
        return family_of(self.id)

    def inputs(self):
        """The fixed cases, built now if they were given as a function."""
        return self.cases() if callable(self.cases) else self.cases
