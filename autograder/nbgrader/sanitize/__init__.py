"""A learner's markup made inert before anyone's browser shows it: formgrader pages and feedback.

nbconvert's HTML templates put a notebook's markdown (rendered by its own markdown
renderer) and its cells' text/html outputs into the page as they are, and some
metadata goes into attributes unquoted. A learner who writes ``<script>``,
``<img onerror=...>`` or a ``javascript:`` link in a markdown cell, or leaves such an
output in a code cell, would run code in the instructor's formgrader and in the
feedback page. Markup that runs nothing can still restyle the page: nbgrader's
formgrader finds each grade cell's widgets by id (``$("#" + grade_id)``) and by class
(``.nbgrader_cell``, ``.score``, ``.full-credit``), and Bootstrap's classes
(``modal``, ``navbar-fixed-top``) lay an element over the whole page, so a learner's
element carrying a grade cell's id and those classes turned one click anywhere into
full marks. ``notebook.sanitize_notebook`` rewrites a notebook so that nothing in it can:

* a markdown cell is kept as written when the HTML nbconvert renders from it passes
  the policy below unchanged. A heading written in markdown (``## Title``) would get an
  id made from its text from nbconvert (``id="Title"``, so a heading ``## answer_order``
  would take a grade cell's id), so each one is written as the same HTML heading
  without an id (``<h2>Title</h2>``): the cell renders as before, less the heading's
  id and its ¶ link, and this is checked by rendering both. Otherwise the cell's HTML
  is cleaned with bleach (what nbconvert's SanitizeHTML does): tags outside the policy
  show as text, unsafe attributes and links are dropped. If even that renders
  something outside the policy (a ``javascript:`` link written in markdown syntax, a
  missing attachment), the cell shows its source as plain preformatted text;
* code cell outputs are capped in number and size first (capped_outputs.py); then
  they keep plain text, LaTeX and PNG/JPEG images; HTML, markdown and SVG outputs only
  when they pass the policy unchanged (else their plain text stands in); JavaScript,
  widget views and anything else are removed, and so is every output's metadata
  (image sizes go into attributes unquoted);
* raw cells are cleaned with bleach; markdown attachments keep PNG, JPEG and GIF
  images only; execution counts are numbers or nothing; the notebook's widget
  state is dropped;
* the metadata nbconvert's templates make classes of is one word each or dropped: a
  cell's tags (``celltag_<tag>``: a tag ``x modal fade show`` would give the cell three
  Bootstrap classes), its ``magics_language`` and the notebook's language
  (``highlight hl-<language>`` on every code cell); a cell's ``transient`` metadata,
  which Jupyter never saves and whose ``remove_source`` hides the code, is dropped.

Code cells' sources are never touched: they are what is graded, and nbconvert shows
them highlighted and escaped.

The policy, and the budget that bounds the work, are in policy.py; markdown as nbconvert
renders it in markdown.py; cells, outputs, metadata and the preprocessor in notebook.py.

autograder/pipeline/handins.py applies this to every notebook mirrored into
OUT/submitted, so what nbgrader's formgrader shows is safe; ``notebook.SanitizeMarkup`` is the
same as a preprocessor of ``GenerateFeedback`` (notebooks/nbgrader_config.py), so
feedback is safe too, even for notebooks that reached autograded/ another way.
Sanitizing twice changes nothing.
"""
