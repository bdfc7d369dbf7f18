import sys

if sys.argv[1:2] == ["grade"]:  # the sandbox's probes run while the grader's modules load
    from autograder.sandbox import spare

    spare.probe_early()

from autograder.cli import main  # the course is found when first used: main() exits 3 naming one it cannot find

sys.exit(main())
