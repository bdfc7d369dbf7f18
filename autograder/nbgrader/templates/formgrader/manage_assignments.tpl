{#- nbgrader's assignments page, with what the kit does and does not use there (autograder/nbgrader/formgrader_pages.py). -#}
{%- extends 'nbgrader/manage_assignments.tpl' -%}

{%- block messages -%}
<div class="alert alert-info" id="graphkit-note" role="note">
  <p><b>This course is graded with graphkit.</b> Each lesson here is released: learners get it from
  <code>make release</code> (the learner bundle) or your LMS, so no lesson waits as a draft and there is
  no Release or Collect button. Hand-ins come in with <code>make grade SUBMISSIONS=DIR</code> or
  <code>make collect ZIP=...</code>, which also autograde them and write their feedback.</p>
  <p>Use this page for what it adds: click a number of submissions, then <b>Manual Grading</b> to score
  or comment on a hand-in. Run <code>make grade</code> again afterwards: it puts your grades and comments
  into the feedback pages, <code>grades.csv</code> and <code>results/</code>.</p>
</div>
{{ super() }}
{%- endblock -%}
