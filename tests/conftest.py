"""pytest's configuration for tests/.

tests/adversary is a tool (``make adversary``), not tests: its modules patch the engine when run,
so pytest neither collects nor imports them (``--doctest-modules`` would import every module).
tests/kit/test_adversary.py checks its table cheaply.

Hypothesis runs without its deadline (200 ms an example by default): an example's wall time says
how busy the machine is, not whether the code is right, and speed is tests/bench's to measure.
Under make test on a machine busy on every core, tests/engine/test_codes.py's examples took 0.7 to 1 s.
"""

import pytest
from hypothesis import settings

collect_ignore = ["adversary"]

settings.register_profile("pyramide", deadline=None)
settings.load_profile("pyramide")


# -- the order the tests start in --------------------------------------------------------------
#: The tests that take the most CPU (each 15 s or more under ``make test``'s ``--durations``), in
#: falling order: they start first, so that pytest-xdist's workers do not end with one of them
#: running alone while the other worker idles. A prefix names a test, a parametrised family or a
#: module. When the whole suite runs, each prefix must name a test (a renamed test is said here).
STARTED_FIRST = (
    "tests/api/test_schemathesis.py::test_schemathesis_finds_nothing",
    "tests/cli/test_wheel.py::test_the_installed_kit_judges_the_installed_server",  # builds the wheel's environment
    "tests/api/test_contract_clients.py::test_the_named_requests_are_among_those_checked",  # runs every vector in-process
    "tests/kit/test_kit_report.py",
    "tests/kit/test_fixed_rules.py::test_pyramide_playing_fixed_rules_passes_every_scenario_that_holds_under_them",
    "tests/browser/test_browser.py::test_a_constructed_deal_played_to_a_win",
    "tests/kit/test_outside_engine.py::test_aisleriot_is_judged_as_its_report_and_baseline_say",
    "tests/solver/test_solver.py::test_one_pass_verdicts_agree_with_a_solver_written_from_the_published_rules",
    "tests/solver/test_solver.py::test_the_search_by_levels_agrees_with_the_whole_search",
    "tests/kit/test_kit_portable.py::test_the_subprocess_driver_judges_an_engine_without_http",
    "tests/kit/test_outside_engine.py::test_soliterm_is_judged_as_its_report_and_baseline_say",
    "tests/kit/test_kit_portable.py::test_an_implementation_of_the_app_alone_skips_the_variants_of_another_shape",
    "tests/kit/test_kit_mutations.py",
    "tests/kit/test_kit_capabilities.py::test_an_engine_lacking_capabilities_skips_exactly_their_scenarios_and_passes_the_rest",
    "tests/kit/test_kit_capabilities.py::test_without_on_the_command_line_skips_over_http",
    "tests/engine/test_fuzz.py::test_the_engine_state_machine",
    "tests/cli/test_cli.py::test_the_check_against_the_reference_solver_prints_what_docs_solver_md_shows",
    "tests/kit/test_kit_health.py::test_an_adapter_that_dies_mid_run_stops_the_run_with_status_2",
    "tests/kit/test_kit_portable.py::test_the_junit_report_carries_tags_and_rule_rows",
)

#: The tests that read what one of the tests above makes once per run (``tests/once.py``): they
#: start last, when it is made, so that a worker does not sit waiting on its lock meanwhile (the
#: wheel's environment takes some 15 s to make; a worker waited 9 s for it, idle). The generated
#: clients' tests go together, so that their module's fixtures are made once.
STARTED_LAST = (
    "tests/api/test_contract_clients.py::test_typescript_types_accept_every_request_and_refuse_the_forbidden",
    "tests/api/test_contract_clients.py::test_python_models",
    "tests/cli/test_wheel.py::test_the_wheel_holds_only_its_own_names_and_every_data_file",
    "tests/cli/test_wheel.py::test_the_readme_engine_example_runs_from_the_installed_package",
    "tests/cli/test_wheel.py::test_installed_commands_answer",
    # the compiled core, built by make test beside the first tests (they wait for it if need be)
    "tests/solver/test_compiled.py",
)


# -- the fast subset: make check -------------------------------------------------------------------
#: The subjects and modules whose tests start other processes (servers, browsers, installed
#: wheels, adapters) or search at length: marked ``slow``, left out of ``make check``
#: (``-m "not slow"``), which keeps the engine, the API in-process, the kit in-process and the
#: doctests: the edit–test loop, under a minute. ``make test`` runs everything.
SLOW = (
    "tests/solver/", "tests/server/", "tests/browser/", "tests/kit/", "tests/cli/", "tests/docs/",
    "tests/api/test_schemathesis.py", "tests/api/test_contract_clients.py",
)  # fmt: skip


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow subjects; start the costliest tests first and those that wait on them last (a
    stable sort: every other test keeps its place)."""
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)

    def rank(item: pytest.Item) -> int:
        if item.nodeid.startswith(STARTED_LAST):
            return len(STARTED_FIRST) + 1
        return next((i for i, prefix in enumerate(STARTED_FIRST) if item.nodeid.startswith(prefix)), len(STARTED_FIRST))

    items.sort(key=rank)
    if not config.args or config.args == config.getini("testpaths"):
        unmatched = [prefix for prefix in STARTED_FIRST + STARTED_LAST if not any(item.nodeid.startswith(prefix) for item in items)]
        if unmatched and not config.getoption("keyword") and not config.getoption("markexpr"):
            raise pytest.UsageError(f"tests/conftest.py STARTED_FIRST or STARTED_LAST names no test: {', '.join(unmatched)}")
