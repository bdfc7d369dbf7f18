# %% lesson notebook="words.ipynb" due="2025-03-14 23:59:00 UTC"
# The fixture course's one lesson: the source of notebooks/source/lesson1_words/words.ipynb.

# %% [markdown]
# # Words
#
# Split a text at whitespace and its pieces are its words.

# %% answer grade_id="word_count_solution"
# WORD_COUNT: how many words "to be or not to be" holds, a whole number
### BEGIN SOLUTION
WORD_COUNT = 6
### END SOLUTION

# %% tests grade_id="answer_word_count" points=1 judge="equals"
assert isinstance(WORD_COUNT, int)

# %% reference grade_id="longest_solution" module="words" names=["longest"]

# %% tests grade_id="longest_correct" grades="longest"
assert longest("a bb ccc") == "ccc"

# %% reference grade_id="tally_solution" module="words" names=["Tally"]

# %% tests grade_id="tally_correct" grades="Tally"
tally = Tally()
tally.add("a")
assert tally.count("a") == 1
