"""nbgrader's side of the kit, and the only package that imports nbgrader.

hidden_checks.py      the preprocessor that scores grade cells from the hidden checks (in place of Execute)
named_stubs.py        generate_assignment's stubs, each naming the task of its cell (in place of ClearSolutions)
hide_hidden_tests.py  the feedback preprocessor that hides hidden tests in test cells only
sanitize/             a learner's markup made inert for the formgrader and the feedback page
capped_outputs.py     a notebook's outputs capped in number and size before anything reads them
feedback_page.py      the feedback page's template (templates/graphkit_feedback/) and its grade-cell summary
course_pictures.py    the pictures a lesson's own cells draw, from its source notebook, for the feedback pages
manual_grades.py      the grades and comments graders set by hand in the gradebook, as plain data
late_penalty.py       the late policy, as nbgrader's late-submission plugin
overwrite_cells.py    nbgrader's OverwriteCells, reading a notebook's rows at once (notebook_rows.py)
save_grades.py        nbgrader's SaveAutoGrades, reading and saving a notebook's rows at once (notebook_rows.py)
notebook_rows.py      one notebook's gradebook rows, read in a few queries
course_folder.py      a cohort's grading folder as an nbgrader course, and nbgrader's steps run in it
speedups.py           work nbgrader repeats for every hand-in, done once per process (nothing it writes changes)
page_memo.py          the code and Markdown cells a feedback page repeats, rendered once per process
env.py                the environment nbgrader runs in
"""
