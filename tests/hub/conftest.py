"""The hub's round trip (test_round_trip.py) is collected only when the run names the marker ``hub``,
as `make hub-e2e` runs it (``-m hub``): `make test` and `make e2e` never create accounts or start a hub."""


def pytest_ignore_collect(collection_path, config):
    if collection_path.name == "conftest.py":
        return None
    return None if "hub" in (config.getoption("markexpr") or "") else True
