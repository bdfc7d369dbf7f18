{#- nbgrader's students page: a learner without a name shows by their id, not "None, None"
    (autograder/nbgrader/formgrader_pages.py). -#}
{%- extends 'nbgrader/manage_students.tpl' -%}

{%- block head -%}
{{ super() }}
<script>
(function () {
  var render = StudentUI.prototype.render;
  StudentUI.prototype.render = function () {
    var result = render.apply(this, arguments);
    if (this.model.get("first_name") === null && this.model.get("last_name") === null) {
      var id = this.model.get("id");
      this.$name.attr("data-order", id);
      this.$name.find("a").text(id).attr("title", "no name in the gradebook: make roster CSV=... names learners");
    }
    return result;
  };
})();
</script>
{%- endblock -%}
