"""Print the table of hidden-check families (Markdown), as docs/checks.md shows it.

python -m graphcourse.checks
"""

from graphcourse.checks import markdown_table

if __name__ == "__main__":
    print(markdown_table())
