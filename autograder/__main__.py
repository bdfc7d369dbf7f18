import sys

from autograder.cli import main  # the course is found when first used: main() exits 3 naming one it cannot find

sys.exit(main())
