"""docs/jupyterhub.md quotes the hub's configuration the round trip (tests/hub/, make hub-e2e) starts the hub with.

These run in make test, without a hub: the page's quoted files against deploy/, the round trip's
own paths against the page's, the hub's pins against the kit's, and the configuration loaded as
JupyterHub loads it.
"""

import re
import sys
from pathlib import Path

import pytest
from traitlets.config import Config

from tests.conftest import ROOT

PAGE = ROOT / "docs" / "jupyterhub.md"
DEPLOY = ROOT / "deploy"
FENCED = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def quoted():
    return [block.rstrip() for block in FENCED.findall(PAGE.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("name", ["jupyterhub_config.py", "nbgrader_config.py"])
def test_the_page_quotes_each_configuration_whole(name):
    text = (DEPLOY / name).read_text(encoding="utf-8").rstrip()
    assert text in quoted(), (
        f"docs/jupyterhub.md does not quote deploy/{name} as it is: paste it whole in a python block"
    )


def test_the_round_trip_starts_the_hub_with_that_configuration():
    from tests.hub import test_round_trip

    assert test_round_trip.CONFIG == DEPLOY / "jupyterhub_config.py"
    loaded = load_hub_config()
    assert loaded.PAMAuthenticator.allowed_groups == {test_round_trip.GROUP}
    nbgrader = load_nbgrader_config()
    assert nbgrader.CourseDirectory.course_id == test_round_trip.COURSE_ID


def test_make_hub_env_installs_the_quoted_nbgrader_settings():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "deploy/nbgrader_config.py $(HUB_ENV)/etc/jupyter/nbgrader_config.py" in makefile
    assert "-r deploy/hub-requirements.txt" in makefile


def test_the_hub_runs_the_kits_own_pins():
    import tomllib

    kit = {
        re.split(r"[<>=\[ ]", dep, maxsplit=1)[0]: dep
        for dep in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    }
    hub = [
        line.strip()
        for line in (DEPLOY / "hub-requirements.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for requirement in hub:
        name = re.split(r"[<>=\[ ]", requirement, maxsplit=1)[0]
        if name in kit:
            assert requirement == kit[name], f"the hub pins {requirement}, the kit {kit[name]}: make them agree"
    assert {"nbgrader", "jupyterlab"} <= {re.split(r"[<>=\[ ]", r, maxsplit=1)[0] for r in hub}


def load_hub_config():
    config = Config()
    exec(
        compile((DEPLOY / "jupyterhub_config.py").read_text(encoding="utf-8"), "jupyterhub_config.py", "exec"),
        {"get_config": lambda: config, "__file__": str(DEPLOY / "jupyterhub_config.py")},
    )
    return config


def load_nbgrader_config():
    config = Config()
    exec(
        compile((DEPLOY / "nbgrader_config.py").read_text(encoding="utf-8"), "nbgrader_config.py", "exec"),
        {"get_config": lambda: config},
    )
    return config


def test_the_hub_listens_on_loopback_and_runs_learners_from_its_own_environment(monkeypatch):
    monkeypatch.setenv("GRAPHKIT_EXCHANGE", "/srv/exchange-of-a-test")
    config = load_hub_config()
    assert config.JupyterHub.ip == "127.0.0.1" and config.JupyterHub.hub_ip == "127.0.0.1"
    assert config.ConfigurableHTTPProxy.api_url.startswith("http://127.0.0.1:")
    assert config.JupyterHub.authenticator_class == "pam"
    assert config.Spawner.cmd == [str(Path(sys.prefix) / "bin" / "jupyterhub-singleuser")]
    assert config.Spawner.environment["GRAPHKIT_EXCHANGE"] == "/srv/exchange-of-a-test"
    assert config.Spawner.environment["PATH"].startswith(str(Path(sys.prefix) / "bin") + ":")
