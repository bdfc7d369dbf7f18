"""The formgrader's pages as the kit uses them: a Jupyter server extension that `make formgrader` loads.

nbgrader's formgrader offers Generate, Release and Collect for every assignment, and shows each
one as "draft" until it sits in nbgrader's exchange. The kit does not use those steps: `make
notebooks` generates, `make release` (or the LMS) releases, and `make grade` or `make collect`
collects and autogrades. Without this extension an instructor sees every lesson as a draft with
working buttons that move files nobody reads. With it:

- the assignments page opens with a note on what the kit does and does not use there;
- every lesson shows as released (the gradebook holds only the lessons the course releases:
  drafts are never built), and has no Release or Collect button;
- a learner without a name shows by their id (the hub's user name, or the folder name under
  submitted/) instead of "None, None", until a roster names them (`make roster`).

Nothing here writes to the gradebook: the names, the status and the buttons are how the pages
show it, in this server only. The pages are nbgrader's own templates, each extended by the one of
the same name in templates/formgrader/ (which reaches nbgrader's as ``nbgrader/<name>``).
"""

from pathlib import Path

TEMPLATES = Path(__file__).parent / "templates" / "formgrader"
SETTING = "nbgrader_jinja2_env"  # the formgrader's Jinja environment, in the server's settings


def assignment_as_the_kit_uses_it(assignment):
    """nbgrader's assignment dict for the formgrader, released and without exchange steps."""
    if isinstance(assignment, dict):
        assignment["status"] = "released"
        assignment["releaseable"] = False  # the page then offers neither Release nor Collect
    return assignment


def _patch_api():
    from nbgrader.apps.api import NbGraderAPI

    if getattr(NbGraderAPI.get_assignment, "graphkit", False):
        return
    original = NbGraderAPI.get_assignment

    def get_assignment(self, assignment_id, released=None):
        return assignment_as_the_kit_uses_it(
            original(self, assignment_id, released=set() if released is None else released)
        )

    get_assignment.graphkit = True
    NbGraderAPI.get_assignment = get_assignment
    NbGraderAPI.get_released_assignments = lambda self: set()  # the exchange is not asked: nothing is released there


def _kit_loader(environment):
    from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader

    original = environment.loader
    environment.loader = ChoiceLoader(
        [FileSystemLoader(str(TEMPLATES)), PrefixLoader({"nbgrader": original}), original]
    )
    if environment.cache is not None:
        environment.cache.clear()


def _patch_settings():
    from nbgrader.server_extensions.formgrader.formgrader import FormgradeExtension

    if getattr(FormgradeExtension.init_tornado_settings, "graphkit", False):
        return
    original = FormgradeExtension.init_tornado_settings

    def init_tornado_settings(self, webapp):
        original(self, webapp)
        _kit_loader(webapp.settings[SETTING])

    init_tornado_settings.graphkit = True
    FormgradeExtension.init_tornado_settings = init_tornado_settings


def _jupyter_server_extension_points():
    return [{"module": __name__}]


def _load_jupyter_server_extension(serverapp):
    _patch_api()
    environment = serverapp.web_app.settings.get(SETTING)
    if environment is not None:  # the formgrader was loaded first
        _kit_loader(environment)
    else:
        _patch_settings()
