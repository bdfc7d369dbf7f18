"""nbgrader's side of the kit, and the only package that imports nbgrader.

hidden_checks.py    the preprocessor that scores grade cells from the hidden checks (in place of Execute)
named_stubs.py      generate_assignment's stubs, each naming the task of its cell (in place of ClearSolutions)
hide_hidden_tests.py  the feedback preprocessor that hides hidden tests in test cells only
feedback_page.py    the feedback page's template (templates/graphkit_feedback/) and its grade-cell summary
course_folder.py    a cohort's grading folder as an nbgrader course, and nbgrader's steps run in it
speedups.py         work nbgrader repeats for every hand-in, done once per process (nothing it writes changes)
env.py              the environment nbgrader runs in
"""
